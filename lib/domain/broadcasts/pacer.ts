/**
 * Paces sends to a rate (messages per second) with a token bucket anchored to the clock, so time the
 * sender spent elsewhere (a database round trip, a full flight of sends, a pause of the event loop)
 * is made up for afterwards: the bucket keeps up to CATCH_UP_MS of tokens. Until 2026-11-30 it kept a
 * fiftieth of a second's, and every stall longer than 20 ms was sending lost for good (about 2 % of
 * a 100,000 run at 1,000/s). Three bounds keep catching up from bursting past the provider's
 * per-second window:
 * - at most a fiftieth of a second's sends at once, then at most twice the rate while catching up;
 * - never more than perSecondAt(rate) sends in any 1,000 ms: the rate and a hundredth (a ring of the
 *   last sends' times, a few kilobytes). Until 2026-12-01 it was a fiftieth: at 970/s that is 989, and
 *   a provider counting 1,000 a second refused as soon as 11 sends' worth (about 10 ms) of our seconds
 *   bunched into one of its (its queue, a pause in either process); 979 leaves it 21. None lower: at
 *   the rate itself, a sender stalled every few hundred milliseconds could no longer make up all of
 *   each stall (tests/broadcasts/pacer.test.ts);
 * - time the sender spent waiting for the provider's answers is not made up for (forgo): a provider
 *   slow to answer has a queue, and a burst into it reaches its per-second count all at once when it
 *   catches up (a bench run that made that up too had 116 refusals against none).
 *
 * Throughput refusals (130429) are answered in two steps. The provider counts sends per second, and a
 * run paced 3 % under its number's throughput is refused now and then only because a second drew a
 * few too many: the two ends' clocks, queues and pauses differ by tens of milliseconds. So a refusal
 * after a clean stretch (STRAY_AFTER_MS without one) is a stray: every send is held for a quarter of
 * the window and the rate loses a tenth. A refusal within that stretch means the provider's limit is
 * lower than ours: every send is held for the provider's whole 1,000 ms window and the rate halves.
 * But not a refusal within a second of the one that began the hold: the provider's second that refused
 * then may have opened well before it (a pause on either side, then a burst of queued sends, fills it
 * early) and still be running once the quarter second's hold is over. That one only holds every send
 * until a second after the first refusal, when that provider second has ended whenever it opened.
 * Refusals that land during a hold (sends already in flight) change nothing more. The rate climbs back
 * by a tenth each clean second after a hold. At 1,000/s a stray used to cost about three seconds of
 * sending (a second's hold, then eight seconds climbing back from half); now it costs a third of one.
 */
export const STRAY_AFTER_MS = 5_000;
/** The longest stretch whose sends are made up for once the sender is back (as tokens kept in the bucket). */
export const CATCH_UP_MS = 100;
const STRAY_HOLD_MS = 250;
const WINDOW_MS = 1_000;

/** The most sends the pacer lets out in any WINDOW_MS at `rate`: the rate and a hundredth of it. */
export function perSecondAt(rate: number): number {
  return Math.max(1, Math.floor(rate * 1.01));
}

export class Pacer {
  /** Sends earned at the rate and not made yet (≤ CATCH_UP_MS of them). */
  private tokens = 0;
  /** Sends that may go out right now: refilled at twice the rate, at most a fiftieth of a second's. */
  private ready = 0;
  private last: number;
  private current: number;
  private cleanSince: number;
  private heldUntil = 0;
  private lastRefusal = Number.NEGATIVE_INFINITY;
  /** The refusal that began the current hold (a stray's or a halving's). */
  private holdStartedAt = Number.NEGATIVE_INFINITY;
  /** When the last sends went out (a ring of perSecondAt(ceiling) times, oldest at `next`). */
  private readonly times: Float64Array;
  private next = 0;

  constructor(
    private readonly ceiling: number,
    /** Monotonic milliseconds: the clock port's (ctx.ports.clock.monotonicMs), or a test's. */
    private readonly now: () => number,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.current = ceiling;
    this.last = now();
    this.cleanSince = this.last;
    this.times = new Float64Array(perSecondAt(ceiling)).fill(Number.NEGATIVE_INFINITY);
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
      const full = this.windowFullFor();
      if (this.tokens >= 1 && this.ready >= 1 && full <= 0) {
        this.tokens -= 1;
        this.ready -= 1;
        this.times[this.next] = this.now();
        this.next = (this.next + 1) % this.times.length;
        return;
      }
      const earning = ((1 - this.tokens) / this.current) * 1000;
      const readying = ((1 - this.ready) / (2 * this.current)) * 1000;
      await this.sleep(Math.max(1, full, Math.ceil(Math.max(earning, readying))));
    }
  }

  /** The time since the last send is not to be made up for (the sender waited for the provider): at most the instant burst stays. */
  forgo(): void {
    this.refill();
    this.tokens = Math.min(this.tokens, Math.max(1, this.current / 50));
  }

  /** The provider refused for throughput: slow down, and hold every send (a stray briefly, else for the provider's window). */
  async refused(): Promise<void> {
    const t = this.now();
    if (t >= this.heldUntil) {
      if (t - this.holdStartedAt < WINDOW_MS) {
        // Possibly the provider's same second as the refusal that began the hold: wait it out, at the rate already cut.
        this.heldUntil = this.holdStartedAt + WINDOW_MS;
      } else {
        const stray = t - this.lastRefusal >= STRAY_AFTER_MS;
        this.current = Math.max(1, Math.floor(stray ? this.current * 0.9 : this.current / 2));
        this.heldUntil = t + (stray ? STRAY_HOLD_MS : WINDOW_MS);
        this.holdStartedAt = t;
      }
      this.tokens = 0;
      this.ready = 0;
      this.cleanSince = this.heldUntil;
      this.last = this.heldUntil;
      this.lastRefusal = t;
    }
    await this.sleep(Math.max(0, this.heldUntil - t));
  }

  /** Milliseconds until one more send keeps the last WINDOW_MS within perSecondAt(current); ≤ 0: now. */
  private windowFullFor(): number {
    const allowed = Math.min(this.times.length, perSecondAt(this.current));
    // The send `allowed` sends back: while it is less than a window old, one more would be one too many.
    const oldest = this.times[(this.next - allowed + this.times.length) % this.times.length]!;
    return Math.ceil(oldest + WINDOW_MS - this.now());
  }

  private refill(): void {
    const t = this.now();
    if (this.current < this.ceiling && t - this.cleanSince >= 1000) {
      this.current = Math.min(this.ceiling, Math.ceil(this.current * 1.1));
      this.cleanSince = t;
    }
    const elapsed = Math.max(0, t - this.last) / 1000;
    this.tokens = Math.min(Math.max(1, (this.current * CATCH_UP_MS) / 1000), this.tokens + elapsed * this.current);
    this.ready = Math.min(Math.max(1, this.current / 50), this.ready + elapsed * 2 * this.current);
    this.last = Math.max(this.last, t);
  }
}
