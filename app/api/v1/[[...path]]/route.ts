import { dispatch } from "@/lib/api/router";

// Every /api/v1 operation is served through the one registry (lib/api/routes), so routing, the
// OpenAPI document and the tests share a single table. Route definitions live in lib/api/routes.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ path?: string[] }> };

async function handle(request: Request, context: Context): Promise<Response> {
  const { path } = await context.params;
  return dispatch(request, `/${(path ?? []).join("/")}`);
}

export { handle as GET, handle as POST, handle as PATCH, handle as PUT, handle as DELETE };
