import type { RequestTracking } from "./request-tracking";
import type { Runtime } from "./runtime";
import { setDraining } from "./shutdown-state";

/**
 * SIGTERM (or SIGINT) for a web process (`next start`, installed by instrumentation.ts) and for
 * `npm run worker` (README "Running in production", "Stopping"):
 *
 *   1. draining: readiness answers 503 and every answer closes its connection; no new job is fetched;
 *   2. after SVC_SHUTDOWN_DELAY_MS (default 0: for load balancers that keep sending until their next
 *      readiness probe), the listeners close: no new connection is accepted;
 *   3. requests and jobs in flight get until SVC_SHUTDOWN_TIMEOUT_MS (default 30 s) after the signal;
 *      a job still running then goes back to the queue at once (lib/ports/queue/stats.ts giveBackJobs);
 *   4. the database closes and the process exits 0. Nothing accepted is lost: a request in flight is
 *      answered, a job either finished or is queued again. Exit 1 only if shutting down itself failed.
 */
export interface ShutdownOptions {
  /** "web" or "worker", for the log lines. */
  name: string;
  timeoutMs: number;
  delayMs: number;
  /** The process's HTTP requests (null: it serves none). */
  tracking: RequestTracking | null;
  /** The process's runtime, or null when it never started. */
  runtime: () => Promise<Runtime | null>;
  /** Closed last (the worker's own metrics listener, which answers readiness 503 until then). */
  finalClose?: () => Promise<void>;
  log?: (line: string) => void;
}

async function shutDown(options: ShutdownOptions): Promise<number> {
  const { name, timeoutMs, delayMs, tracking } = options;
  const log = options.log ?? ((line: string) => console.log(line));
  const deadline = Date.now() + timeoutMs;
  const remaining = () => Math.max(0, deadline - Date.now());
  setDraining(true);
  tracking?.closeConnectionsAfterAnswers();
  log(`svc ${name} ${process.pid}: draining: readiness answers 503; requests and jobs in flight get ${timeoutMs} ms`);
  const runtime = await options.runtime().catch(() => null);
  // No new job from now on; those running get until the deadline, then go back to the queue.
  const work = runtime ? runtime.stopWork({ graceMs: remaining() }) : Promise.resolve({ givenBack: 0 });
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(delayMs, remaining())));
  for (const server of tracking?.servers() ?? []) {
    server.close();
    server.closeIdleConnections();
  }
  const answered = tracking ? await tracking.idle(deadline) : true;
  const { givenBack } = await work;
  if (!answered) log(`svc ${name} ${process.pid}: ${tracking!.inFlight()} request(s) still open at the deadline`);
  if (givenBack > 0) log(`svc ${name} ${process.pid}: ${givenBack} job(s) still running at the deadline went back to the queue`);
  await runtime?.close();
  await options.finalClose?.();
  log(`svc ${name} ${process.pid}: stopped`);
  return 0;
}

/**
 * Handles SIGTERM and SIGINT with shutDown, then exits. `replace`: remove the handlers installed
 * before (next start's own, which closes the listener at once and exits 143 without waiting for the
 * jobs or readiness). A second signal during the shutdown is ignored; a shutdown that hangs past its
 * bound (plus 10 s for closing) exits 1.
 */
export function exitGracefullyOnSignals(options: ShutdownOptions & { replace: boolean }): void {
  let started = false;
  const handle = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    (options.log ?? console.log)(`svc ${options.name} ${process.pid}: ${signal}`);
    setTimeout(() => {
      console.error(`svc ${options.name} ${process.pid}: shutdown did not finish within ${options.timeoutMs + 10_000} ms; exiting`);
      process.exit(1);
    }, options.timeoutMs + 10_000).unref();
    shutDown(options).then(
      (code) => process.exit(code),
      (error: unknown) => {
        console.error(`svc ${options.name} ${process.pid}: shutdown failed:`, error);
        process.exit(1);
      },
    );
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    if (options.replace) process.removeAllListeners(signal);
    process.on(signal, handle);
  }
}
