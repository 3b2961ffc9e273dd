/**
 * Paces sends to a rate (messages per second) with a token bucket holding at most a fiftieth of a
 * second's tokens, so a run never bursts past the provider's per-second window. A throughput refusal
 * halves the rate and holds EVERY send (not only the refused one) for a second, the provider's
 * window; refusals that land during that hold change nothing more. The rate then climbs back by a
 * tenth each clean second (additive increase, multiplicative decrease).
 */
export class Pacer {
  private tokens = 0;
  private last: number;
  private current: number;
  private cleanSince: number;
  private heldUntil = 0;

  constructor(
    private readonly ceiling: number,
    private readonly now: () => number = () => performance.now(),
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

  /** The provider refused for throughput: slow down, and hold every send until its window has passed. */
  async refused(): Promise<void> {
    const t = this.now();
    if (t >= this.heldUntil) {
      this.current = Math.max(1, Math.floor(this.current / 2));
      this.tokens = 0;
      this.heldUntil = t + 1000;
      this.cleanSince = this.heldUntil;
      this.last = this.heldUntil;
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
