import { newId } from "@/lib/ids";
import { SvcError } from "@/lib/errors";
import { createRouter, decodeSegment } from "@/lib/api/router";
import { errorResponse, handlerHeaders } from "@/lib/api/respond";
import { getRuntime, type Runtime } from "@/lib/server/runtime";
import { projectAccessFor, scopesOfRole } from "@/lib/domain/members";
import { accountRoutes, dashboardProjectRoutes } from "./routes";
import { inboxStreamRoute } from "./routes/inbox-stream";
import { requireUser } from "./session";

/**
 * Every public JSON operation plus the dashboard's own, served to a signed-in operator per project, and
 * the inbox's event stream (a byte route: its answer is a stream, outside the JSON operations' table).
 */
const projectRouter = createRouter([...dashboardProjectRoutes, inboxStreamRoute], "/api/dashboard/projects/{id}");
/** The calls outside any project (lib/dashboard/routes/account.ts), through the same kind of router. */
const accountRouter = createRouter(accountRoutes, "/api/dashboard");

/**
 * A session cookie rides along on every request the browser makes, also ones another site triggers:
 * writes must come from our own pages. (The cookie is SameSite=Lax as well; this is the second lock.)
 */
function assertSameOrigin(request: Request) {
  if (request.method === "GET" || request.method === "HEAD") return;
  const origin = request.headers.get("origin");
  if (origin === null) return;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  let originHost: string | null = null;
  try {
    originHost = new URL(origin).host;
  } catch {
    // "null" and other opaque origins fall through to the refusal.
  }
  if (!host || originHost !== host) throw new SvcError("forbidden", "Cross-site requests to the dashboard are refused.");
}

/**
 * Serves /api/dashboard/*: who am I, first-run set-up, invitations, and every project operation
 * (`/projects/{id}/<api path>`) through the same route wrapper and verbs as /api/v1, with the
 * operator's role in place of an API key. A project outside the operator's organizations is a 404.
 */
export async function handleDashboard(request: Request, path: string, given?: Runtime): Promise<Response> {
  const requestId = newId("request");
  const headers = handlerHeaders(requestId);
  try {
    assertSameOrigin(request);
    const runtime = given ?? (await getRuntime());
    const db = runtime.database.db;
    const segments = path.split("/").filter(Boolean).map(decodeSegment);
    const [head, id] = segments;

    if (head === "projects" && id) {
      const userId = await requireUser(request);
      const access = await projectAccessFor(db, userId, id);
      if (!access) throw new SvcError("not_found", `No project '${id}' in your organizations.`);
      const principal = { ...access, user: { id: access.user.id, email: access.user.email, name: access.user.name }, scopes: scopesOfRole(access.role) };
      return projectRouter(request, `/${segments.slice(2).map(encodeURIComponent).join("/")}`, runtime, principal);
    }
    return accountRouter(request, path, runtime);
  } catch (error) {
    return errorResponse(error, requestId, headers);
  }
}
