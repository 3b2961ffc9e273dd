import { dispatch } from "@/lib/api/router";

// Every /api/v1 operation is served through the one table (lib/api/registry.ts), so routing, the
// OpenAPI document and the tests share it. Route definitions live in lib/api/routes.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** /api/v1/... or its /v1/... rewrite. */
const PREFIX = /^(?:\/api)?\/v1(?=\/|$)/;

/**
 * The path comes from the raw URL, not from Next's decoded catch-all params, so the router decodes
 * each segment exactly once. A path that does not percent-decode at all never gets here: Next.js
 * would throw decoding it, so proxy.ts answers it first (lib/http/malformed-path.ts).
 */
async function handle(request: Request): Promise<Response> {
  return dispatch(request, new URL(request.url).pathname.replace(PREFIX, "") || "/");
}

// OPTIONS: the CORS preflight of the operations browsers may call (lib/api/cors.ts); elsewhere 405.
export { handle as GET, handle as POST, handle as PATCH, handle as PUT, handle as DELETE, handle as OPTIONS };
