/**
 * What instrumentation.ts runs in the Node.js runtime when a Next.js server starts: opens the database
 * (migrations, reference data, bootstrap) before the first request so a broken set-up fails loudly at
 * start rather than on first use. A module of its own so the Edge compile of instrumentation.ts never
 * follows these Node-only imports (next dev printed "Ecmascript file had an error" for each).
 */
export async function registerNode(): Promise<void> {
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  // Each request's socket address, for the client-address rules (lib/api/client-ip.ts).
  const { stampEveryServersPeers } = await import("./peer-address");
  stampEveryServersPeers();
  // Traces only when an OTLP endpoint is configured (lib/server/tracing.ts); next's request spans come along.
  const { startTracing } = await import("./tracing");
  const tracing = startTracing({ serviceName: "svc-web" });
  if (process.env.NODE_ENV === "production") await drainOnSigterm(() => tracing?.stop() ?? Promise.resolve());
  const { getRuntime } = await import("./runtime");
  await getRuntime();
}

/**
 * `next start`: SIGTERM drains instead of next's own handler, which closes the listener at once and
 * exits 143 without waiting for jobs or telling the load balancer (lib/server/shutdown.ts). Under
 * `next dev` Ctrl-C keeps stopping at once.
 */
async function drainOnSigterm(stopTracing: () => Promise<void>) {
  const { env } = await import("@/lib/config");
  const { trackEveryServersRequests } = await import("./request-tracking");
  const { exitGracefullyOnSignals } = await import("./shutdown");
  const { startedRuntime } = await import("./runtime");
  const config = env();
  exitGracefullyOnSignals({
    name: "web",
    timeoutMs: config.shutdownTimeoutMs,
    delayMs: config.shutdownDelayMs,
    tracking: trackEveryServersRequests(),
    runtime: startedRuntime,
    // The last spans are sent before the process exits.
    finalClose: stopTracing,
    replace: true,
  });
}
