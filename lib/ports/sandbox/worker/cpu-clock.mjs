// @ts-check
import { performance } from "node:perf_hooks";
import { SHARED_CPU_USED, SHARED_EXECUTING_SINCE, SHARED_SLICE_CPU_START, SHARED_STOPPING, SHARED_THREAD_ID } from "./protocol.mjs";
import { threadClock } from "./thread-clock.mjs";

/**
 * Time the function's own code executes: the sum of the synchronous slices in which QuickJS runs
 * (evaluation, promise jobs, timer callbacks), never the time spent awaiting fetch, KV or timers.
 * A slice is measured on the worker thread's CPU clock (thread-clock.mjs), so time the thread waited
 * for a core on a busy machine is not charged to the function; where there is no such clock, in
 * elapsed time, which can only make the limit stricter.
 *
 * Each slice is also published in shared memory so the pool can end a run whose slice never returns
 * (a long loop inside a built-in such as Array.prototype.join never reaches the interrupt handler).
 */
export class CpuClock {
  /** @type {Float64Array} */ #shared;
  /** @type {import("./thread-clock.mjs").ThreadClock | null} */ #thread;
  #usedMs = 0;
  /** performance.now() at the running slice's start; 0 when no slice runs */
  #sliceStart = 0;
  /** the clock's reading at the running slice's start */
  #sliceClockStart = 0;
  /** before this performance.now(), the running slice cannot have passed the limit `exceeds` last read */
  #noNeedToReadBefore = 0;

  /**
   * @param {Float64Array} shared
   * @param {import("./thread-clock.mjs").ThreadClock | null} thread
   */
  constructor(shared, thread = threadClock()) {
    this.#shared = shared;
    this.#thread = thread;
    shared[SHARED_CPU_USED] = 0;
    shared[SHARED_EXECUTING_SINCE] = 0;
    shared[SHARED_STOPPING] = 0;
    shared[SHARED_THREAD_ID] = thread?.tid ?? 0;
    shared[SHARED_SLICE_CPU_START] = 0;
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
    this.#sliceClockStart = this.#read();
    this.#noNeedToReadBefore = 0;
    this.#shared[SHARED_SLICE_CPU_START] = this.#sliceClockStart;
    this.#shared[SHARED_EXECUTING_SINCE] = performance.timeOrigin + this.#sliceStart;
    try {
      return slice();
    } finally {
      this.#usedMs += this.#read() - this.#sliceClockStart;
      this.#sliceStart = 0;
      this.#shared[SHARED_CPU_USED] = this.#usedMs;
      this.#shared[SHARED_EXECUTING_SINCE] = 0;
    }
  }

  /** Milliseconds used so far, the running slice included. */
  get usedMs() {
    return this.#sliceStart === 0 ? this.#usedMs : this.#usedMs + this.#read() - this.#sliceClockStart;
  }

  /**
   * Whether more than `limitMs` has been used. The interrupt handler asks this thousands of times a
   * second, so the thread's clock is read only when it could say yes: a thread's CPU time grows no
   * faster than the time elapsed, so the limit cannot be passed before the slice's elapsed time says
   * it could, nor for `limitMs - used` ms after a reading of `used`.
   * @param {number} limitMs
   */
  exceeds(limitMs) {
    if (this.#sliceStart === 0) return this.#usedMs > limitMs;
    const now = performance.now();
    if (now < this.#noNeedToReadBefore || this.#usedMs + (now - this.#sliceStart) <= limitMs) return false;
    const used = this.usedMs;
    if (used > limitMs) return true;
    this.#noNeedToReadBefore = now + (limitMs - used);
    return false;
  }

  #read() {
    return this.#thread ? this.#thread.readMs() : performance.now();
  }
}
