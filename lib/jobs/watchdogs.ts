import { systemCtx, type Services } from "@/lib/domain/context";
import { takeOverStalledRuns, WATCH_EVERY_MS } from "@/lib/domain/broadcasts/watchdog";
import { sweepExpiredLeases } from "@/lib/domain/webhooks/lease-sweep";
import { rootMessage } from "@/lib/error-kind";

/**
 * Checks every worker process runs on a timer of its own rather than as queue jobs: a job held by a
 * worker that was killed stays "active" until pg-boss expires it, and the check exists precisely for
 * that case. One pass at start, then every few seconds, never two at once; any number of processes
 * may run it (each check claims its rows in one guarded statement).
 */
export function startWatchdogs(services: Services): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let pass: Promise<void> = Promise.resolve();
  const run = async () => {
    try {
      for (const job of await takeOverStalledRuns(systemCtx(services))) {
        console.log(`[broadcasts] ${job.broadcastId}: its sender stopped renewing its lease; resumed as run ${job.generation}`);
      }
    } catch (error) {
      // The database may be away for a moment (a restart): the next pass tries again.
      console.error(`[broadcasts] watchdog: ${rootMessage(error)}`);
    }
    try {
      const taken = await sweepExpiredLeases(systemCtx(services));
      if (taken) console.log(`[webhooks] ${taken} direct deliveries outlived their lease (a worker stopped); each goes to a job`);
    } catch (error) {
      console.error(`[webhooks] lease sweep: ${rootMessage(error)}`);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      pass = run().then(schedule);
    }, WATCH_EVERY_MS);
    timer.unref();
  };
  pass = run().then(schedule);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await pass;
    },
  };
}
