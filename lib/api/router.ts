import { performance } from "node:perf_hooks";
import { newId } from "@/lib/ids";
import type { HttpRoute, MetricsPort } from "@/lib/ports/metrics";
import { inSpan, tracingOn } from "@/lib/ports/tracing";
import { getRuntime, startedRuntime, type Runtime } from "@/lib/server/runtime";
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
  /** The metrics and span route label: the mount and the template, never the raw path (ids stay out). */
  label: string;
  /** Its latency series per runtime and method, made on first use (lib/ports/metrics HttpRoute). */
  recorders: WeakMap<MetricsPort, Map<string, HttpRoute>>;
}

/** Throws when two entries serve the same method on the same path: a table is checked when its router is made. */
function compile(endpoints: readonly Endpoint[], mount: string): CompiledRoute[] {
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
      return { endpoint, pattern: new RegExp(`^${source}$`), names, label: `${mount}${endpoint.path}`, recorders: new WeakMap() };
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

/** Observes one answer in the route's latency series (status and seconds since `started`); no runtime yet, no series. */
function observe(route: Pick<CompiledRoute, "label" | "recorders">, method: string, metrics: MetricsPort | undefined, status: number, started: number): void {
  if (!metrics) return;
  let byMethod = route.recorders.get(metrics);
  if (!byMethod) route.recorders.set(metrics, (byMethod = new Map()));
  let recorder = byMethod.get(method);
  if (!recorder) byMethod.set(method, (recorder = metrics.httpRoute(route.label, method)));
  recorder.observe(status, (performance.now() - started) / 1000);
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
  const compiled = compile(endpoints, mount);
  // Paths no entry serves share one series: a label per raw path would be one per id.
  const unmatched = { label: `${mount} (unmatched)`, recorders: new WeakMap<MetricsPort, Map<string, HttpRoute>>() };

  async function answer(request: Request, path: string, runtime: Runtime | undefined, operator: OperatorPrincipal | undefined, started: number) {
    const method = request.method.toUpperCase();
    const normalized = normalizePath(path);
    const candidates: { route: CompiledRoute; params: Record<string, string> }[] = [];
    for (const route of compiled) {
      const match = route.pattern.exec(normalized);
      if (!match) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => (params[name] = decodeSegment(match[i + 1]!)));
      candidates.push({ route, params });
    }
    // Answers that need no runtime do not start one (a 404 before the first real request); they are counted once one runs.
    const metrics = (runtime ?? (await startedRuntime()))?.ports.metrics;
    if (candidates.length === 0) {
      const response = json(
        404,
        { error: "not_found", message: `No endpoint ${request.method} ${mount}${normalized} is served by this build.` },
        { "Request-Id": newId("request") },
      );
      observe(unmatched, method, metrics, 404, started);
      return response;
    }
    if (method === "OPTIONS") {
      // A CORS preflight, answered only where a browser may call with a publishable key (lib/api/cors.ts).
      const browserMethods = candidates
        .filter((c) => !isByteRoute(c.route.endpoint) && c.route.endpoint.auth === "secret_or_publishable")
        .map((c) => c.route.endpoint.method);
      if (browserMethods.length) {
        const response = preflightResponse(request, browserMethods);
        observe(candidates[0]!.route, method, metrics, response.status, started);
        return response;
      }
    }
    const chosen = candidates.find((c) => methodsOf(c.route.endpoint).includes(method));
    if (!chosen) {
      const allowed = [...new Set(candidates.flatMap((c) => methodsOf(c.route.endpoint)))];
      const response = json(
        405,
        { error: "method_not_allowed", message: `${request.method} is not served on ${mount}${normalized}. Allowed: ${allowed.join(", ")}.` },
        { "Request-Id": newId("request"), Allow: allowed.join(", ") },
      );
      observe(candidates[0]!.route, method, metrics, 405, started);
      return response;
    }
    const { route, params } = chosen;
    const rt = runtime ?? (await getRuntime());
    const run = async () => {
      try {
        const response = await route.endpoint.run(request, params, rt, operator);
        observe(route, method, rt.ports.metrics, response.status, started);
        return response;
      } catch (error) {
        observe(route, method, rt.ports.metrics, 500, started);
        throw error;
      }
    };
    if (!tracingOn()) return run();
    const attributes = { "http.request.method": method, "http.route": route.label, "svc.operation": route.endpoint.operationId };
    return inSpan(`${method} ${route.label}`, "server", attributes, run, (span, response) => span.setAttribute("http.response.status_code", response.status));
  }

  return (request, path, runtime, operator) => answer(request, path, runtime, operator, performance.now());
}

const publicRouter = createRouter(apiRoutes, "/api/v1");

/** Serves one /api/v1 request. `path` is the part after /api/v1 (or the /v1 rewrite), e.g. "/projects". */
export function dispatch(request: Request, path: string, runtime?: Runtime): Promise<Response> {
  return publicRouter(request, path, runtime);
}
