import type http from "node:http";
import { closeServer, createWebServer, listenOn } from "./node-http";
import { opsEndpoint } from "./ops-endpoints";
import type { Runtime } from "./runtime";

/**
 * `npm run worker`'s own small HTTP listener, only when SVC_WORKER_METRICS_PORT is set (README
 * "Health and metrics"): GET /metrics (the same SVC_METRICS_TOKEN rule as the web process), GET
 * /healthz and GET /readyz, so a supervisor or orchestrator can probe a worker like a web process.
 * It binds SVC_WORKER_METRICS_HOST (default 127.0.0.1) and serves nothing else.
 */
export async function startWorkerListener(
  runtime: Runtime,
  options: { port: number; host: string; metricsToken?: string | null },
): Promise<{ url: string; close(): Promise<void> }> {
  let base = "";
  const server: http.Server = createWebServer(
    () => base,
    async (request) => {
      const endpoint = request.method === "GET" ? opsEndpoint(new URL(request.url).pathname, { metricsToken: options.metricsToken ?? null }) : null;
      if (!endpoint)
        return new Response(JSON.stringify({ error: "not_found", message: "This listener serves GET /metrics, /healthz and /readyz." }), { status: 404 });
      return endpoint(request, async () => runtime);
    },
  );
  base = await listenOn(server, options.port, options.host);
  return { url: base, close: () => closeServer(server) };
}
