import { z } from "@/lib/api/zod";
import { newId } from "@/lib/ids";
import { SvcError } from "@/lib/errors";
import { registeredRoutes } from "@/lib/api/registry";
import { createRouter, decodeSegment } from "@/lib/api/router";
import { parse, readJson } from "@/lib/api/route";
import { errorResponse, handlerHeaders, json } from "@/lib/api/respond";
import { getRuntime, type Runtime } from "@/lib/server/runtime";
import { acceptInvitation, describeInvitation, MIN_PASSWORD_LENGTH, operatorCount, operatorOverview, projectAccessFor, scopesOfRole, setupFirstOwner } from "@/lib/domain/members";
import { dashboardOnlyRoutes } from "./routes";
import { sessionUserId } from "./session";

/** Every public operation plus the dashboard's own, served to a signed-in operator per project. */
const projectRouter = createRouter(() => [...registeredRoutes(), ...dashboardOnlyRoutes], "/api/dashboard/projects/{id}");

const Password = z.string().min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters.`).max(200);
const SetupBody = z
  .object({ name: z.string().trim().min(1, "Enter your name.").max(100), email: z.email("Enter a valid email address.").max(320), password: Password, organization_name: z.string().trim().min(1, "Name your organization.").max(100) })
  .strict();
const AcceptBody = z.object({ name: z.string().trim().max(100).optional(), password: z.string().min(1).max(200) }).strict();

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

async function requireUser(request: Request): Promise<string> {
  const userId = await sessionUserId(request);
  if (!userId) throw new SvcError("unauthenticated", "You are signed out. Sign in to continue.");
  return userId;
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
    const now = runtime.clock.now();
    const segments = path.split("/").filter(Boolean).map(decodeSegment);
    const [head, id, action] = segments;
    const method = request.method.toUpperCase();

    if (head === "projects" && id) {
      const userId = await requireUser(request);
      const access = await projectAccessFor(db, userId, id);
      if (!access) throw new SvcError("not_found", `No project '${id}' in your organizations.`);
      const principal = { ...access, user: { id: access.user.id, email: access.user.email, name: access.user.name }, scopes: scopesOfRole(access.role) };
      return projectRouter(request, `/${segments.slice(2).map(encodeURIComponent).join("/")}`, runtime, principal);
    }
    if (head === "me" && segments.length === 1 && method === "GET") {
      const overview = await operatorOverview(db, await requireUser(request));
      if (!overview) throw new SvcError("unauthenticated", "Your account no longer exists. Sign in again.");
      return json(200, { object: "operator", ...overview }, headers);
    }
    if (head === "setup" && segments.length === 1) {
      if (method === "GET") return json(200, { object: "setup", needed: (await operatorCount(db)) === 0 }, headers);
      if (method === "POST") {
        const input = parse(SetupBody, await readJson(request, false), "body") as z.infer<typeof SetupBody>;
        const user = await setupFirstOwner(db, { name: input.name, email: input.email, password: input.password, organizationName: input.organization_name });
        return json(200, { object: "user", id: user.id, email: user.email, name: user.name }, headers);
      }
    }
    if (head === "invitations" && id && segments.length === 2 && method === "GET") return json(200, await describeInvitation(db, id, now), headers);
    if (head === "invitations" && id && action === "accept" && segments.length === 3 && method === "POST") {
      const input = parse(AcceptBody, await readJson(request, false), "body") as z.infer<typeof AcceptBody>;
      return json(200, await acceptInvitation(db, id, input, now), headers);
    }
    return json(404, { error: "not_found", message: `No endpoint ${request.method} /api/dashboard/${segments.join("/")}.` }, { "Request-Id": requestId });
  } catch (error) {
    return errorResponse(error, requestId, headers);
  }
}
