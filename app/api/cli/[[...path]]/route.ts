import { handleCli } from "@/lib/cli-api/routes";

// `svc login` / `svc logout` (lib/cli-api/routes.ts): device codes and the logout call.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

async function handle(request: Request): Promise<Response> {
  return handleCli(request, new URL(request.url).pathname.replace(/^\/api\/cli(?=\/|$)/, "") || "/");
}

export { handle as GET, handle as POST };
