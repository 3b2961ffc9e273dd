import { platformOfSlug, receiveDelivery, verifySubscription } from "@/lib/api/provider-webhook";
import { getRuntime } from "@/lib/server/runtime";

// Provider-facing (not part of the public API): GET handshake, POST signed deliveries.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ platform: string }> };

export async function GET(request: Request, context: Context) {
  const platform = platformOfSlug((await context.params).platform);
  if (!platform) return new Response("Not found", { status: 404 });
  return verifySubscription(platform, new URL(request.url));
}

export async function POST(request: Request, context: Context) {
  const platform = platformOfSlug((await context.params).platform);
  if (!platform) return new Response("Not found", { status: 404 });
  return receiveDelivery(platform, request, await getRuntime());
}
