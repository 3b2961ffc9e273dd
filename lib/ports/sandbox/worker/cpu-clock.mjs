// @ts-check
import { performance } from "node:perf_hooks";
import { SHARED_CPU_USED, SHARED_EXECUTING_SINCE, SHARED_STOPPING } from "./protocol.mjs";

/**
 * Time the function's own code executes: the sum of the synchronous slices in which QuickJS runs
 * (evaluation, promise jobs, timer callbacks), never the time spent awaiting fetch, KV or timers.
 * Worker threads have no per-thread CPU clock on Node 20, so a slice is measured in elapsed time;
 * on a busy machine that can only make the limit stricter, never looser.
 *
 * Each slice is also published in shared memory so the pool can end a run whose slice never returns
 * (a long loop inside a built-in such as Array.prototype.join never reaches the interrupt handler).
 */
export class CpuClock {
  /** @type {Float64Array} */ #shared;
  #usedMs = 0;
  #sliceStart = 0;

  /** @param {Float64Array} shared */
  constructor(shared) {
    this.#shared = shared;
    shared[SHARED_CPU_USED] = 0;
    shared[SHARED_EXECUTING_SINCE] = 0;
    shared[SHARED_STOPPING] = 0;
  }

  /**
   * Tells the pool that QuickJS has been told to end the run: the slice still running is only its
   * unwinding, so the pool's watchdog waits for the answer instead of ending the worker.
   */
  stopping() {
    this.#shared[SHARED_STOPPING] = 1;
  }

  /**
   * Runs `slice` as user-code time. Re-entrant: a nested call is part of the outer slice.
   * @template T
   * @param {() => T} slice
   * @returns {T}
   */
  measure(slice) {
    if (this.#sliceStart !== 0) return slice();
    this.#sliceStart = performance.now();
    this.#shared[SHARED_EXECUTING_SINCE] = performance.timeOrigin + this.#sliceStart;
    try {
      return slice();
    } finally {
      this.#usedMs += performance.now() - this.#sliceStart;
      this.#sliceStart = 0;
      this.#shared[SHARED_CPU_USED] = this.#usedMs;
      this.#shared[SHARED_EXECUTING_SINCE] = 0;
    }
  }

  /** Milliseconds used so far, the running slice included. */
  get usedMs() {
    return this.#sliceStart === 0 ? this.#usedMs : this.#usedMs + performance.now() - this.#sliceStart;
  }
}
