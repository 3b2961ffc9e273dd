import { platformOfSlug } from "@/lib/api/provider-webhook";
import { receiveFlowEndpointCall } from "@/lib/api/provider-flow-endpoint";
import { getRuntime } from "@/lib/server/runtime";

// Provider-facing (not part of the public API): the encrypted endpoint of DATA_EXCHANGE Flows, PLATFORM_A only.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ platform: string; flowId: string }> };

export async function POST(request: Request, context: Context) {
  const { platform, flowId } = await context.params;
  return receiveFlowEndpointCall(platformOfSlug(platform), flowId, request, await getRuntime());
}
