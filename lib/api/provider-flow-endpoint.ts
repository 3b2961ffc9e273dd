import { MAX_PROVIDER_BODY_BYTES } from "@/lib/api/provider-webhook";
import { readBodyBytes } from "@/lib/api/request-input";
import { handleFlowEndpoint } from "@/lib/domain/flows/exchange/endpoint";
import { SvcError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { servicesOf, type Runtime } from "@/lib/server/runtime";
import type { ProviderPlatform } from "@/lib/ports/provider/types";

/**
 * `POST /api/providers/platform-a/flows/{flow_id}/endpoint`: the provider's encrypted call to a
 * DATA_EXCHANGE Flow (lib/domain/flows/exchange/endpoint.ts). Provider-facing, not public API: its
 * answers are the provider protocol's plain-text statuses, never our JSON error shape.
 */
export async function receiveFlowEndpointCall(platform: ProviderPlatform | null, flowId: string, request: Request, runtime: Runtime): Promise<Response> {
  if (platform !== "PLATFORM_A") return new Response("Not found", { status: 404 });
  let rawBody: Uint8Array;
  try {
    rawBody = await readBodyBytes(request, MAX_PROVIDER_BODY_BYTES);
  } catch (error) {
    if (!SvcError.is(error)) throw error;
    return new Response(`The body is larger than ${MAX_PROVIDER_BODY_BYTES} bytes.`, { status: 413, headers: { "content-type": "text/plain" } });
  }
  try {
    const answer = await handleFlowEndpoint(servicesOf(runtime), { flowId, rawBody, signature: request.headers.get("x-hub-signature-256") });
    return new Response(answer.body, { status: answer.status, headers: { "content-type": answer.contentType } });
  } catch (error) {
    const requestId = newId("request");
    console.error(`[${requestId}] flow endpoint ${flowId} failed`, error);
    return new Response(`Internal error (${requestId}).`, { status: 500, headers: { "content-type": "text/plain" } });
  }
}
