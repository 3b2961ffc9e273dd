import { createHash, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/config";
import { assessReadiness, PROBE_TIMEOUT_MS, withTimeout } from "./health";
import type { Runtime } from "./runtime";

/**
 * The operational endpoints, outside /api/v1 (README "Health and metrics"): GET /healthz (liveness),
 * GET /readyz (readiness) and GET /metrics (Prometheus text). Served by the Next app (app/healthz,
 * app/readyz, app/metrics), by `npm run worker` on SVC_WORKER_METRICS_PORT, and by the test server.
 * They do not pass through the API's route wrapper: no key, no rate limit, no quota, no Svc-Version.
 */

const NO_STORE = { "cache-control": "no-store" };

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...NO_STORE, ...headers } });
}

/** Liveness: the process answers. Touches nothing, so a slow database never gets a live process restarted. */
export function livenessResponse(): Response {
  return json(200, { status: "ok" });
}

/**
 * Readiness: 200 when the process should get traffic, else 503 with the check that failed.
 * `runtime` resolves to the process's runtime; one still starting (or failed to start) is not ready.
 */
export async function readinessResponse(runtime: () => Promise<Runtime>): Promise<Response> {
  const started = await withTimeout(runtime(), PROBE_TIMEOUT_MS).catch(() => null);
  const readiness = await assessReadiness(started ? started.readiness : null);
  return json(readiness.ready ? 200 : 503, { status: readiness.ready ? "ready" : "not_ready", checks: readiness.checks });
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

/** Whether the request carries `Authorization: Bearer <token>` (compared in constant time). */
function bearerMatches(request: Request, token: string): boolean {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return match !== null && timingSafeEqual(digest(match[1]!.trim()), digest(token));
}

/**
 * The process's series in Prometheus text format, for a scraper holding SVC_METRICS_TOKEN. Without a
 * token configured the endpoint does not exist (404): metrics name routes, queues and volumes, which
 * are not for the public. `token` defaults to the environment's.
 */
export async function metricsResponse(request: Request, runtime: () => Promise<Runtime>, token = env().metricsToken): Promise<Response> {
  if (!token) return json(404, { error: "not_found", message: "Metrics are off on this process: set SVC_METRICS_TOKEN to serve them." });
  if (!bearerMatches(request, token)) {
    return json(
      401,
      { error: "unauthenticated", message: "GET /metrics needs Authorization: Bearer <SVC_METRICS_TOKEN>." },
      { "WWW-Authenticate": 'Bearer realm="metrics"' },
    );
  }
  const { contentType, body } = await (await runtime()).ports.metrics.render();
  return new Response(body, { status: 200, headers: { "content-type": contentType, ...NO_STORE } });
}

/**
 * The operational endpoint for `path`, or null when it is not one (a server's own routing falls
 * through). `metricsToken` replaces SVC_METRICS_TOKEN (tests set it without touching the environment).
 */
export function opsEndpoint(
  path: string,
  options: { metricsToken?: string | null } = {},
): ((request: Request, runtime: () => Promise<Runtime>) => Promise<Response>) | null {
  switch (path) {
    case "/healthz":
      return async () => livenessResponse();
    case "/readyz":
      return (_request, runtime) => readinessResponse(runtime);
    case "/metrics":
      return (request, runtime) => metricsResponse(request, runtime, options.metricsToken !== undefined ? options.metricsToken : env().metricsToken);
    default:
      return null;
  }
}
