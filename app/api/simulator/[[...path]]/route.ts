import { env } from "@/lib/config";
import { closedSimulatorAnswer } from "@/lib/api/simulator-gate";
import { sharedSimulator } from "@/lib/simulator";

// The built-in provider simulator (Graph API subset + "act as the customer"), served only while no
// real provider is configured (PROVIDER_GRAPH_URL unset); in production its customer and control
// routes only to the dashboard's sandbox phone unless SVC_SIMULATOR_PUBLIC=true.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ path?: string[] }> };

async function handle(request: Request, context: Context): Promise<Response> {
  const config = env();
  if (config.providerGraphUrl)
    return new Response(JSON.stringify({ error: "not_found", message: "The simulator is off: PROVIDER_GRAPH_URL is set." }), { status: 404 });
  const { path } = await context.params;
  const target = `/${(path ?? []).join("/")}`;
  return closedSimulatorAnswer(request, target, config.simulatorPublic) ?? sharedSimulator().handle(request, target);
}

export { handle as DELETE, handle as GET, handle as POST };
