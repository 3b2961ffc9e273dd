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
  // A crash must stop the processes too: one left behind (a web server retrying its dropped database at
  // 0.6 cores) went on running through every later run of the evening and slowed all of them.
  for (const event of ["uncaughtException", "unhandledRejection"] as const) {
    process.on(event, (error: unknown) => {
      console.error(`[${tag}] ${event}: cleaning up`, error);
      void cleanup().finally(() => process.exit(1));
    });
  }
  return () => clearTimeout(watchdog);
}

/**
 * Cleanup steps run once, newest first, however many of the run's end, the watchdog and a signal ask
 * for it; a failing step is logged and the rest still run. `last` runs after every step.
 */
export function cleanupStack(tag: string, last?: () => void): { push(step: () => Promise<void>): void; run(): Promise<void> } {
  const steps: (() => Promise<void>)[] = [];
  let running: Promise<void> | null = null;
  return {
    push: (step) => void steps.push(step),
    run() {
      running ??= (async () => {
        for (const step of steps.reverse()) {
          try {
            await step();
          } catch (error) {
            console.error(`[${tag}] cleanup: ${error instanceof Error ? error.message : error}`);
          }
        }
        last?.();
      })();
      return running;
    },
  };
}
