import { newId } from "@/lib/ids";
import { getRuntime, type Runtime } from "@/lib/server/runtime";
import { apiRoutes } from "./registry";
import { isByteRoute, type Endpoint } from "./endpoint";
import type { OperatorPrincipal } from "./principal";
import { json } from "./respond";
import { preflightResponse } from "./cors";

/** The methods an entry serves: its own, plus HEAD for a byte route that answers it. */
function methodsOf(endpoint: Endpoint): string[] {
  return isByteRoute(endpoint) && endpoint.head ? [endpoint.method, "HEAD"] : [endpoint.method];
}

interface CompiledRoute {
  endpoint: Endpoint;
  pattern: RegExp;
  names: string[];
}

/** Throws when two entries serve the same method on the same path: a table is checked when its router is made. */
function compile(endpoints: readonly Endpoint[]): CompiledRoute[] {
  const seen = new Map<string, string>();
  for (const endpoint of endpoints) {
    for (const method of methodsOf(endpoint)) {
      const key = `${method} ${endpoint.path}`;
      const other = seen.get(key);
      if (other) throw new Error(`Two operations on ${key}: ${other} and ${endpoint.operationId}`);
      seen.set(key, endpoint.operationId);
    }
  }
  return endpoints
    .map((endpoint) => {
      const names: string[] = [];
      // Literal segments win over parameters: "/business-agents/eligibility" before "/business-agents/{id}".
      const source = endpoint.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_m, name: string) => {
        names.push(name);
        return "([^/]+)";
      });
      return { endpoint, pattern: new RegExp(`^${source}$`), names };
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

function normalizePath(path: string): string {
  return path === "" ? "/" : path.replace(/\/+$/, "") || "/";
}

export type Dispatcher = (request: Request, path: string, runtime?: Runtime, operator?: OperatorPrincipal) => Promise<Response>;

/**
 * A dispatcher over a table of operations. Unserved paths and methods answer 404/405 WITHOUT
 * Svc-Version, which is how clients tell "this build has no such endpoint" from a handler's own 404
 * (docs/spec/service-spec.md: Errors, 404 and 405 disambiguation). `mount` names the prefix in those messages.
 */
export function createRouter(endpoints: readonly Endpoint[], mount: string): Dispatcher {
  const compiled = compile(endpoints);
  return async (request, path, runtime, operator) => {
    const method = request.method.toUpperCase();
    const normalized = normalizePath(path);
    const candidates: { endpoint: Endpoint; params: Record<string, string> }[] = [];
    for (const { endpoint, pattern, names } of compiled) {
      const match = pattern.exec(normalized);
      if (!match) continue;
      const params: Record<string, string> = {};
      names.forEach((name, i) => (params[name] = decodeSegment(match[i + 1]!)));
      candidates.push({ endpoint, params });
    }
    const requestId = newId("request");
    if (candidates.length === 0) {
      return json(
        404,
        { error: "not_found", message: `No endpoint ${request.method} ${mount}${normalized} is served by this build.` },
        { "Request-Id": requestId },
      );
    }
    if (method === "OPTIONS") {
      // A CORS preflight, answered only where a browser may call with a publishable key (lib/api/cors.ts).
      const browserMethods = candidates.filter((c) => !isByteRoute(c.endpoint) && c.endpoint.auth === "secret_or_publishable").map((c) => c.endpoint.method);
      if (browserMethods.length) return preflightResponse(request, browserMethods);
    }
    const chosen = candidates.find((c) => methodsOf(c.endpoint).includes(method));
    if (!chosen) {
      const allowed = [...new Set(candidates.flatMap((c) => methodsOf(c.endpoint)))];
      return json(
        405,
        { error: "method_not_allowed", message: `${request.method} is not served on ${mount}${normalized}. Allowed: ${allowed.join(", ")}.` },
        { "Request-Id": requestId, Allow: allowed.join(", ") },
      );
    }
    return chosen.endpoint.run(request, chosen.params, runtime ?? (await getRuntime()), operator);
  };
}

const publicRouter = createRouter(apiRoutes, "/api/v1");

/** Serves one /api/v1 request. `path` is the part after /api/v1 (or the /v1 rewrite), e.g. "/projects". */
export function dispatch(request: Request, path: string, runtime?: Runtime): Promise<Response> {
  return publicRouter(request, path, runtime);
}
