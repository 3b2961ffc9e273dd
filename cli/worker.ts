import { env } from "@/lib/config";
import { getRuntime } from "@/lib/server/runtime";
import { exitGracefullyOnSignals } from "@/lib/server/shutdown";
import { startWorkerListener } from "@/lib/server/worker-listener";
import { startTracing } from "@/lib/server/tracing";

/**
 * `npm run worker`: a process that only runs background jobs (provider sends, ingest, webhook
 * deliveries). Run any number of them beside web processes started with SVC_WORKER=off; pg-boss's
 * SKIP LOCKED claims mean no job runs twice. SIGTERM drains it (lib/server/shutdown.ts): no new job,
 * those in flight get SVC_SHUTDOWN_TIMEOUT_MS, any still running then go back to the queue, exit 0.
 */
try {
  process.loadEnvFile?.(".env");
} catch {
  /* environment variables only */
}
process.env.SVC_WORKER = "on";

const config = env();
// Traces only when an OTLP endpoint is configured (README "Health and metrics").
const tracing = startTracing({ serviceName: "svc-worker" });
const runtime = await getRuntime();
console.log(`svc worker ${process.pid}: running jobs on ${runtime.database.kind}`);
const listener = config.workerMetricsPort
  ? await startWorkerListener(runtime, { port: config.workerMetricsPort, host: config.workerMetricsHost, metricsToken: config.metricsToken })
  : null;
if (listener) console.log(`svc worker ${process.pid}: /metrics, /healthz and /readyz on ${listener.url}`);

exitGracefullyOnSignals({
  name: "worker",
  timeoutMs: config.shutdownTimeoutMs,
  delayMs: 0,
  tracking: null,
  runtime: async () => runtime,
  async finalClose() {
    await listener?.close();
    await tracing?.stop();
  },
  replace: false,
});
