/**
 * Clock port. Production reads the wall clock; tests install a FixedClock and move it, so time rules
 * (24 h window, retention, retries, pacing, idempotency expiry, a long poll's wait) are tested without
 * sleeping. lib/domain reads time only through it (the lint rule in eslint.config.mjs).
 */
export interface Clock {
  /** The wall clock: what timestamps, windows and expiries are made of. */
  now(): Date;
  /**
   * Milliseconds on a clock that only moves forward, for durations and deadlines within a process (how
   * long an attempt took, when a slice or a long poll must end): never a timestamp, and unmoved when
   * the wall clock is set.
   */
  monotonicMs(): number;
}

export const systemClock: Clock = { now: () => new Date(), monotonicMs: () => performance.now() };

/**
 * A wall clock that stands still until the test moves it. Its monotonic clock runs in real time, so a
 * wait bounded by a deadline still ends, plus every advance(): passing time in a test also brings a
 * running deadline closer. set() and a negative advance() move the wall clock only, as setting a real
 * one would: monotonic time never goes back.
 */
export class FixedClock implements Clock {
  private current: number;
  private advanced = 0;
  constructor(start: Date | string | number = Date.UTC(2026, 5, 18, 12, 0, 0)) {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  monotonicMs(): number {
    return performance.now() + this.advanced;
  }
  set(at: Date | string | number): void {
    this.current = new Date(at).getTime();
  }
  advance(ms: number): void {
    this.current += ms;
    this.advanced += Math.max(0, ms);
  }
}
