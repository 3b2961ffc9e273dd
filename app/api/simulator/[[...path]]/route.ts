import { env } from "@/lib/config";
import { sharedSimulator } from "@/lib/simulator";

// The built-in provider simulator (Graph API subset + "act as the customer"), served only while no
// real provider is configured (PROVIDER_GRAPH_URL unset).
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ path?: string[] }> };

async function handle(request: Request, context: Context): Promise<Response> {
  if (env().providerGraphUrl)
    return new Response(JSON.stringify({ error: "not_found", message: "The simulator is off: PROVIDER_GRAPH_URL is set." }), { status: 404 });
  const { path } = await context.params;
  return sharedSimulator().handle(request, `/${(path ?? []).join("/")}`);
}

export { handle as DELETE, handle as GET, handle as POST };
