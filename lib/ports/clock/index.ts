/**
 * Clock port. Production reads the wall clock; tests install a FixedClock and move it, so time rules
 * (24 h window, retention, retries, pacing, idempotency expiry) are tested without sleeping.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export class FixedClock implements Clock {
  private current: number;
  constructor(start: Date | string | number = Date.UTC(2026, 5, 18, 12, 0, 0)) {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  set(at: Date | string | number): void {
    this.current = new Date(at).getTime();
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
