import { handleDashboard } from "@/lib/dashboard/dispatch";

// The dashboard's data calls: session-authenticated, served by the same operations as /api/v1.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The raw path after /api/dashboard: segments are decoded by the dispatcher (see app/api/v1's route). */
async function handle(request: Request): Promise<Response> {
  return handleDashboard(request, new URL(request.url).pathname.replace(/^\/api\/dashboard(?=\/|$)/, "") || "/");
}

export { handle as GET, handle as POST, handle as PATCH, handle as PUT, handle as DELETE };
