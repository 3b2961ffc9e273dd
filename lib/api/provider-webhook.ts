import { performance } from "node:perf_hooks";
import type { HttpRoute, MetricsPort } from "@/lib/ports/metrics";
import type { ProviderPlatform } from "@/lib/ports/provider/types";
import { appSecretFor, verifySignature, verifyTokenFor } from "@/lib/ports/provider/app-secret";
import { receiveProviderWebhook } from "@/lib/domain/ingest/process";
import { servicesOf, type Runtime } from "@/lib/server/runtime";
import { systemCtx } from "@/lib/domain/context";
import { SvcError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { isDatabaseUnavailable } from "@/lib/ports/db/postgres-guard";
import { databaseUnavailableBody, json } from "./respond";
import { readBodyBytes } from "./request-input";

/** The provider's own upper bound for one webhook notification (docs/api-decisions.md → "Request limits"). */
export const MAX_PROVIDER_BODY_BYTES = 3 * 1024 * 1024;

const PLATFORMS: Record<string, ProviderPlatform> = { "platform-a": "PLATFORM_A", "platform-b": "PLATFORM_B", "platform-c": "PLATFORM_C" };

export function platformOfSlug(slug: string): ProviderPlatform | null {
  return PLATFORMS[slug] ?? null;
}

/** GET: the provider's subscription handshake (hub.mode=subscribe, hub.verify_token, echo hub.challenge). */
export function verifySubscription(platform: ProviderPlatform, url: URL): Response {
  const expected = verifyTokenFor(platform);
  const mode = url.searchParams.get("hub.mode");
  const token = url.searchParams.get("hub.verify_token");
  const challenge = url.searchParams.get("hub.challenge");
  if (!expected || mode !== "subscribe" || token !== expected || challenge === null) {
    return json(403, { error: "forbidden", message: "Verification failed: hub.mode must be subscribe and hub.verify_token must match." });
  }
  return new Response(challenge, { status: 200, headers: { "content-type": "text/plain" } });
}

/** The provider endpoint's latency series per runtime (one label: the route template, whatever the platform slug). */
const deliveries = new WeakMap<MetricsPort, HttpRoute>();

/**
 * POST: verify X-Hub-Signature-256 over the raw bytes BEFORE parsing, store the envelope with its
 * job, answer 200 at once. The work continues in the ingest job.
 */
export async function receiveDelivery(platform: ProviderPlatform, request: Request, runtime: Runtime): Promise<Response> {
  const started = performance.now();
  const response = await receive(platform, request, runtime);
  const metrics = runtime.ports.metrics;
  let recorder = deliveries.get(metrics);
  if (!recorder) deliveries.set(metrics, (recorder = metrics.httpRoute("/api/providers/{platform}/webhook", "POST")));
  recorder.observe(response.status, (performance.now() - started) / 1000);
  return response;
}

async function receive(platform: ProviderPlatform, request: Request, runtime: Runtime): Promise<Response> {
  const secret = appSecretFor(platform);
  // The signature covers the bytes as sent: verify those, not a decoded (BOM-stripped, U+FFFD-repaired) string.
  let bytes: Uint8Array;
  try {
    bytes = await readBodyBytes(request, MAX_PROVIDER_BODY_BYTES);
  } catch (error) {
    if (!SvcError.is(error)) throw error;
    // Unauthenticated until the signature is checked: nothing past the cap is kept or stored (the rest is read and dropped).
    return json(413, { error: "payload_too_large", message: `The body is larger than ${MAX_PROVIDER_BODY_BYTES} bytes.`, max_bytes: MAX_PROVIDER_BODY_BYTES });
  }
  if (!secret) return json(401, { error: "invalid_signature", message: `No app secret is configured for ${platform}; set ${platform}_APP_SECRET.` });
  if (!verifySignature(secret, bytes, request.headers.get("x-hub-signature-256"))) {
    return json(401, { error: "invalid_signature", message: "X-Hub-Signature-256 does not match the body." });
  }
  try {
    await receiveProviderWebhook(systemCtx(servicesOf(runtime)), { platform, rawBody: storableText(bytes) });
  } catch (error) {
    // Nothing was stored: any 5xx makes the provider deliver it again later, so nothing is lost.
    const requestId = newId("request");
    if (isDatabaseUnavailable(error)) return json(503, databaseUnavailableBody(requestId, error), { "Retry-After": "1" });
    console.error(`[${requestId}] provider webhook not stored`, error);
    return json(500, { error: "internal_error", message: "The delivery was not stored; deliver it again.", request_id: requestId });
  }
  return new Response("EVENT_RECEIVED", { status: 200, headers: { "content-type": "text/plain" } });
}

/**
 * The body as text a Postgres text column accepts: invalid UTF-8 becomes U+FFFD and NUL characters
 * (which text columns refuse) become U+FFFD too, so a signed but garbled body is still recorded (and
 * then marked as not JSON by the ingest job) instead of failing the request.
 */
function storableText(bytes: Uint8Array): string {
  return new TextDecoder("utf-8").decode(bytes).replaceAll("\u0000", "\uFFFD");
}
