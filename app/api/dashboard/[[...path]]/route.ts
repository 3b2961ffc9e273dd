import { handleDashboard } from "@/lib/dashboard/dispatch";

// The dashboard's data calls: session-authenticated, served by the same operations as /api/v1.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ path?: string[] }> };

async function handle(request: Request, context: Context): Promise<Response> {
  const { path } = await context.params;
  return handleDashboard(request, `/${(path ?? []).map(encodeURIComponent).join("/")}`);
}

export { handle as GET, handle as POST, handle as PATCH, handle as PUT, handle as DELETE };
