/**
 * What the bench and the fault suite both need around their main(): a watchdog that ends a run which
 * outlives its bound, and SIGINT/SIGTERM handlers, each cleaning up (processes, temp folders) first.
 * Returns a stop() that disarms the watchdog once the run has finished.
 */
export function guardRun(tag: string, watchdogMs: number, cleanup: () => Promise<void>): () => void {
  const watchdog = setTimeout(() => {
    console.error(`[${tag}] watchdog: still running after ${watchdogMs / 60_000} min, stopping`);
    void cleanup().finally(() => process.exit(2));
  }, watchdogMs);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      console.error(`[${tag}] ${signal}: cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  return () => clearTimeout(watchdog);
}
