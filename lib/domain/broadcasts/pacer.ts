/**
 * Paces sends to a rate (messages per second) with a token bucket holding at most a fiftieth of a
 * second's tokens, so a run never bursts past the provider's per-second window.
 *
 * Throughput refusals (130429) are answered in two steps. The provider counts sends per second, and a
 * run paced 3 % under its number's throughput is refused now and then only because a second drew a
 * few too many: the two ends' clocks, queues and pauses differ by tens of milliseconds. So a refusal
 * after a clean stretch (STRAY_AFTER_MS without one) is a stray: every send is held for a quarter of
 * the window and the rate loses a tenth. A refusal within that stretch means the provider's limit is
 * lower than ours: every send is held for the provider's whole 1,000 ms window and the rate halves.
 * Refusals that land during a hold (sends already in flight) change nothing more. The rate climbs back
 * by a tenth each clean second after a hold. At 1,000/s a stray used to cost about three seconds of
 * sending (a second's hold, then eight seconds climbing back from half); now it costs a third of one.
 */
export const STRAY_AFTER_MS = 5_000;
const STRAY_HOLD_MS = 250;
const WINDOW_MS = 1_000;

export class Pacer {
  private tokens = 0;
  private last: number;
  private current: number;
  private cleanSince: number;
  private heldUntil = 0;
  private lastRefusal = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly ceiling: number,
    /** Monotonic milliseconds: the clock port's (ctx.ports.clock.monotonicMs), or a test's. */
    private readonly now: () => number,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.current = ceiling;
    this.last = now();
    this.cleanSince = this.last;
  }

  get rate(): number {
    return this.current;
  }

  /** Resolves when one more send may go out. */
  async take(): Promise<void> {
    for (;;) {
      const held = this.heldUntil - this.now();
      if (held > 0) {
        await this.sleep(held);
        continue;
      }
      this.refill();
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await this.sleep(Math.max(1, Math.ceil(((1 - this.tokens) / this.current) * 1000)));
    }
  }

  /** The provider refused for throughput: slow down, and hold every send (a stray briefly, else for the provider's window). */
  async refused(): Promise<void> {
    const t = this.now();
    if (t >= this.heldUntil) {
      const stray = t - this.lastRefusal >= STRAY_AFTER_MS;
      this.current = Math.max(1, Math.floor(stray ? this.current * 0.9 : this.current / 2));
      this.tokens = 0;
      this.heldUntil = t + (stray ? STRAY_HOLD_MS : WINDOW_MS);
      this.cleanSince = this.heldUntil;
      this.last = this.heldUntil;
      this.lastRefusal = t;
    }
    await this.sleep(Math.max(0, this.heldUntil - t));
  }

  private refill(): void {
    const t = this.now();
    if (this.current < this.ceiling && t - this.cleanSince >= 1000) {
      this.current = Math.min(this.ceiling, Math.ceil(this.current * 1.1));
      this.cleanSince = t;
    }
    const burst = Math.max(1, this.current / 50);
    this.tokens = Math.min(burst, this.tokens + (Math.max(0, t - this.last) / 1000) * this.current);
    this.last = Math.max(this.last, t);
  }
}
