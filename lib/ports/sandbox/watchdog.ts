import { SHARED_CPU_USED, SHARED_EXECUTING_SINCE, SHARED_SLICE_CPU_START, SHARED_STOPPING, SHARED_THREAD_ID } from "./protocol";
import { threadCpuMs } from "./thread-cpu";
import type { SandboxLimits } from "./types";

/**
 * The pool's own limits on a job, from outside the worker. The worker enforces CPU and wall time itself
 * (an interrupt handler and a deadline), but code can be stuck where neither is reached: a long loop
 * inside a built-in (`new Array(1e9).join()` never returns to the interpreter) or a worker that stops
 * answering. Past the limit plus a grace, the job is ended and its worker terminated and replaced.
 */

/**
 * How far past its CPU limit a run may go before the pool ends it from outside: 2.5 % of the limit,
 * leaving most of the 10 % README "Hosted functions" allows to the time the main thread may take to
 * notice (its timers run late while it is busy or descheduled). Most runs never get here, the worker's
 * interrupt handler ends them at the limit; but QuickJS only calls that handler once in some thousands
 * of function calls and loop jumps, and some shapes take seconds between two: a recursion that keeps
 * catching its own stack overflow builds a stack trace of thousands of frames at each throw, and
 * JSON.stringify of a 100k-deep object loops inside the built-in. For those the limit is this.
 */
function cpuGraceMs(limits: SandboxLimits): number {
  return Math.max(MIN_CPU_GRACE_MS, limits.cpuMs / 40);
}
/** Below this, a worker merely descheduled at its limit on a busy machine would be ended from outside. */
const MIN_CPU_GRACE_MS = 25;
/** More for a worker whose interrupt handler has already ended the run (SHARED_STOPPING): it is only unwinding to answer. */
const STOPPING_GRACE_MS = 500;
/** Beyond the worker's own deadline (a wall timer in the worker and a check in its interrupt handler). */
const WALL_GRACE_MS = 1_000;
const MIN_RECHECK_MS = 10;

export type WatchdogReason = "cpu_limit_exceeded" | "wall_time_exceeded";

export class JobWatchdog {
  private cpuTimer: NodeJS.Timeout | undefined;
  private wallTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly shared: Float64Array,
    private readonly limits: SandboxLimits,
    private readonly onLimit: (reason: WatchdogReason) => void,
  ) {}

  start(): void {
    this.wallTimer = setTimeout(() => this.onLimit("wall_time_exceeded"), this.limits.wallMs + WALL_GRACE_MS);
    this.armCpuCheck(this.cpuBudgetMs());
  }

  stop(): void {
    clearTimeout(this.cpuTimer);
    clearTimeout(this.wallTimer);
  }

  /**
   * CPU time of the job so far, as the worker publishes it (worker/cpu-clock.mjs), the running slice
   * included: read on the worker thread's CPU clock where it has one, so a worker that waited for a core
   * on a busy machine is not ended for the wait; otherwise the slice's elapsed time.
   */
  cpuUsedMs(): number {
    const used = this.shared[SHARED_CPU_USED] ?? 0;
    const since = this.shared[SHARED_EXECUTING_SINCE] ?? 0;
    if (since === 0) return used;
    const tid = this.shared[SHARED_THREAD_ID] ?? 0;
    const threadNow = tid > 0 ? threadCpuMs(tid) : null;
    if (threadNow !== null) return used + Math.max(0, threadNow - (this.shared[SHARED_SLICE_CPU_START] ?? 0));
    return used + Math.max(0, performance.timeOrigin + performance.now() - since);
  }

  private cpuBudgetMs(): number {
    const stopping = this.shared[SHARED_STOPPING] === 1;
    return this.limits.cpuMs + cpuGraceMs(this.limits) + (stopping ? STOPPING_GRACE_MS : 0);
  }

  /** CPU time only grows while the function executes, so the check re-arms for the budget still left. */
  private armCpuCheck(delayMs: number): void {
    this.cpuTimer = setTimeout(() => {
      const budget = this.cpuBudgetMs();
      const used = this.cpuUsedMs();
      if (used >= budget) this.onLimit("cpu_limit_exceeded");
      else this.armCpuCheck(Math.max(MIN_RECHECK_MS, budget - used));
    }, delayMs);
  }
}
