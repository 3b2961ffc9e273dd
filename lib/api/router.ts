import { newId } from "@/lib/ids";
import { getRuntime, type Runtime } from "@/lib/server/runtime";
import { registeredRoutes } from "./registry";
import type { Route } from "./route";
import type { OperatorPrincipal } from "./principal";
import { json } from "./respond";
import { MEDIA_CONTENT_METHODS, MEDIA_CONTENT_PATH, serveMediaContent } from "./media-content";
import "./routes";

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  names: string[];
}

function compile(routes: readonly Route[]): CompiledRoute[] {
  return routes
    .map((route) => {
      const names: string[] = [];
      // Literal segments win over parameters: "/business-agents/eligibility" before "/business-agents/{id}".
      const source = route.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_m, name: string) => {
        names.push(name);
        return "([^/]+)";
      });
      return { route, pattern: new RegExp(`^${source}$`), names };
    })
    .sort((a, b) => a.names.length - b.names.length);
}

/** A malformed percent-encoding is kept as is (the handler then answers its own 404), never a crash. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function normalizePath(path: string): string {
  return path === "" ? "/" : path.replace(/\/+$/, "") || "/";
}

export type Dispatcher = (request: Request, path: string, runtime?: Runtime, operator?: OperatorPrincipal) => Promise<Response>;

/**
 * A dispatcher over a table of operations. Unserved paths and methods answer 404/405 WITHOUT
 * Svc-Version, which is how clients tell "this build has no such endpoint" from a handler's own 404
 * (spec: Errors, 404 and 405 disambiguation). `mount` names the prefix in those messages.
 */
export function createRouter(routes: () => readonly Route[], mount: string): Dispatcher {
  let compiled: CompiledRoute[] | null = null;
  return async (request, path, runtime, operator) => {
    compiled ??= compile(routes());
    const method = request.method.toUpperCase();
    const normalized = normalizePath(path);
    const candidates: { route: Route; params: Record<string, string> }[] = [];
    for (const { route, pattern, names } of compiled) {
      const match = pattern.exec(normalized);
      if (!match) continue;
      const params: Record<string, string> = {};
      names.forEach((name, i) => (params[name] = decodeSegment(match[i + 1]!)));
      candidates.push({ route, params });
    }
    const requestId = newId("request");
    if (candidates.length === 0) {
      return json(404, { error: "not_found", message: `No endpoint ${request.method} ${mount}${normalized} is served by this build.` }, { "Request-Id": requestId });
    }
    const chosen = candidates.find((c) => c.route.method === method);
    if (!chosen) {
      const allowed = [...new Set(candidates.map((c) => c.route.method))];
      return json(405, { error: "method_not_allowed", message: `${request.method} is not served on ${mount}${normalized}. Allowed: ${allowed.join(", ")}.` }, { "Request-Id": requestId, Allow: allowed.join(", ") });
    }
    return chosen.route.run(request, chosen.params, runtime ?? (await getRuntime()), operator);
  };
}

const publicRouter = createRouter(registeredRoutes, "/api/v1");

/** Serves one /api/v1 request. `path` is the part after /api/v1 (or the /v1 rewrite), e.g. "/projects". */
export async function dispatch(request: Request, path: string, runtime?: Runtime): Promise<Response> {
  const normalized = normalizePath(path);
  // The signed media download answers bytes, not JSON: it has its own handler (lib/api/media-content.ts).
  const media = MEDIA_CONTENT_PATH.exec(normalized);
  if (media) {
    const method = request.method.toUpperCase();
    if ((MEDIA_CONTENT_METHODS as readonly string[]).includes(method)) return serveMediaContent(request, decodeSegment(media[1]!), runtime ?? (await getRuntime()));
    const allowed = MEDIA_CONTENT_METHODS.join(", ");
    return json(405, { error: "method_not_allowed", message: `${request.method} is not served on /api/v1${normalized}. Allowed: ${allowed}.` }, { "Request-Id": newId("request"), Allow: allowed });
  }
  return publicRouter(request, path, runtime);
}
