import { describe, expect, it } from "vitest";
import { CATCH_UP_MS, Pacer, STRAY_AFTER_MS, perSecondAt } from "@/lib/domain/broadcasts/pacer";

/**
 * Virtual time for the Pacer: `now` reads it, `sleep` parks a timer, and `runUntil` fires the timers
 * in order, letting the awaiting code run between them. No real time passes.
 */
class FakeTime {
  t = 0;
  sleeps: number[] = [];
  private timers: { at: number; seq: number; resolve: () => void }[] = [];
  private seq = 0;

  now = () => this.t;
  sleep = (ms: number) => {
    this.sleeps.push(ms);
    return new Promise<void>((resolve) => this.timers.push({ at: this.t + ms, seq: this.seq++, resolve }));
  };

  async settle(): Promise<void> {
    for (let i = 0; i < 4; i++) await new Promise((resolve) => setImmediate(resolve));
  }

  async runUntil(end: number): Promise<void> {
    await this.settle();
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.t = next.at;
      next.resolve();
      await this.settle();
    }
    this.t = Math.max(this.t, end);
    await this.settle();
  }
}

/** A sender that takes as fast as the pacer allows, logging when each take resolved. */
function sendForever(pacer: Pacer, time: FakeTime): number[] {
  const at: number[] = [];
  void (async () => {
    for (;;) {
      await pacer.take();
      at.push(time.t);
    }
  })();
  return at;
}

const within = (times: number[], from: number, to: number) => times.filter((t) => t >= from && t < to).length;

describe("Pacer.take", () => {
  it.each([1, 7, 80, 1000])("lets about %i sends out in a simulated second", async (rate) => {
    const time = new FakeTime();
    const sent = sendForever(new Pacer(rate, time.now, time.sleep), time);
    await time.runUntil(3000);
    for (const second of [0, 1000, 2000]) {
      const n = within(sent, second, second + 1000);
      expect(n, `second starting at ${second} ms`).toBeLessThanOrEqual(rate + 1);
      expect(n, `second starting at ${second} ms`).toBeGreaterThanOrEqual(Math.floor(rate * 0.97));
    }
  });

  it("starts with an empty bucket: the first send waits for its token", async () => {
    const time = new FakeTime();
    const sent = sendForever(new Pacer(80, time.now, time.sleep), time);
    await time.runUntil(12);
    expect(sent).toEqual([]);
    await time.runUntil(13);
    expect(sent).toEqual([13]);
  });

  // At once, at most a fiftieth of a second's sends (pacer.ts: ready ≤ max(1, rate / 50)); then the rate.
  it.each([
    [5, 1],
    [80, 1],
    [1000, 20],
  ])("after a long idle time at %i/s, lets at most %i sends out at once", async (rate, burst) => {
    const time = new FakeTime();
    const pacer = new Pacer(rate, time.now, time.sleep);
    time.t = 60_000;
    const sent = sendForever(pacer, time);
    await time.settle();
    expect(sent.length).toBe(burst);
    expect(sent.every((t) => t === 60_000)).toBe(true);
    await time.runUntil(61_000);
    expect(within(sent, 60_000, 61_000)).toBeLessThanOrEqual(perSecondAt(rate));
    expect(perSecondAt(rate)).toBe(Math.floor(rate + rate / 100));
  });

  it("never lets more than rate/10 + 1 sends out in any 100 ms while sending flat out", async () => {
    const time = new FakeTime();
    const sent = sendForever(new Pacer(1000, time.now, time.sleep), time);
    await time.runUntil(2000);
    for (let from = 0; from < 1900; from += 10) expect(within(sent, from, from + 100)).toBeLessThanOrEqual(101);
  });
});

/** The most sends in any `window` ms of a sorted list of send times. */
function busiest(times: number[], window: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[j]! <= times[i]! - window) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

/** Like sendForever, but the sender goes elsewhere for `stalls[k].ms` once past `stalls[k].at` (a database round trip, a full flight). */
function sendWithStalls(pacer: Pacer, time: FakeTime, stalls: { at: number; ms: number }[]): number[] {
  const at: number[] = [];
  const due = [...stalls];
  void (async () => {
    for (;;) {
      if (due[0] && time.t >= due[0].at) await time.sleep(due.shift()!.ms);
      await pacer.take();
      at.push(time.t);
    }
  })();
  return at;
}

describe("Pacer after a stall", () => {
  it(`makes up for up to ${CATCH_UP_MS} ms the sender spent elsewhere: a fiftieth of a second's sends at once, then twice the rate`, async () => {
    const time = new FakeTime();
    const pacer = new Pacer(970, time.now, time.sleep);
    const sent = sendWithStalls(pacer, time, [{ at: 2000, ms: 80 }]);
    await time.runUntil(4000);
    // As many as without the stall (the first send waits for its token, the last may not be due yet).
    expect(within(sent, 0, 4000)).toBeGreaterThanOrEqual(970 * 4 - 2);
    // The sender went away after its first send at or past 2,000 ms (no send is due at 2,000 itself).
    const away = sent.find((t) => t >= 2000)!;
    const back = sent.find((t) => t > away)!;
    expect(back).toBe(away + 80);
    expect(within(sent, back, back + 1)).toBe(Math.floor(970 / 50));
    // 77 sends owed: made up within 100 ms at up to twice the rate, then the pace again.
    expect(within(sent, back, back + 100)).toBeGreaterThan(97 + 60);
    expect(within(sent, back, back + 100)).toBeLessThanOrEqual(194 + 20);
    expect(within(sent, back + 200, back + 1200)).toBeLessThanOrEqual(971);
  });

  it("makes up for none of it when the sender says it waited for the provider (forgo): a fiftieth of a second's sends, then the rate", async () => {
    const time = new FakeTime();
    const pacer = new Pacer(1000, time.now, time.sleep);
    const sent: number[] = [];
    void (async () => {
      for (;;) {
        if (time.t === 1000) {
          await time.sleep(80);
          pacer.forgo();
        }
        await pacer.take();
        sent.push(time.t);
      }
    })();
    await time.runUntil(2080);
    expect(within(sent, 1000, 1080)).toBe(1);
    expect(within(sent, 1080, 1081)).toBe(20);
    expect(within(sent, 1080, 2080)).toBeLessThanOrEqual(20 + 1000);
    expect(within(sent, 1080, 1180)).toBeLessThanOrEqual(20 + 100);
  });

  it(`loses what lies beyond ${CATCH_UP_MS} ms of a longer stall`, async () => {
    const time = new FakeTime();
    const sent = sendWithStalls(new Pacer(1000, time.now, time.sleep), time, [{ at: 1000, ms: 500 }]);
    await time.runUntil(3000);
    expect(within(sent, 0, 3000)).toBeGreaterThanOrEqual(3000 - 400 - 2);
    expect(within(sent, 0, 3000)).toBeLessThanOrEqual(3000 - 400);
  });

  it.each([80, 970, 1000])("never lets more than perSecondAt(rate) sends out in any 1,000 ms at %i/s, whatever the stalls", async (rate) => {
    const time = new FakeTime();
    // Stalls of 5 to 300 ms every 300 to 1,000 ms of sending (time enough to catch up in between; a fixed pseudo-random series).
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const stalls: { at: number; ms: number }[] = [];
    for (let at = 100; at < 30_000; at += 300 + Math.floor(next() * 700)) stalls.push({ at, ms: 5 + Math.floor(next() * 295) });
    const sent = sendWithStalls(new Pacer(rate, time.now, time.sleep), time, stalls);
    await time.runUntil(30_000);
    expect(busiest(sent, 1000)).toBeLessThanOrEqual(perSecondAt(rate));
    // At the broadcast's pace for a 1,000/s number, 21 sends' worth of jitter between the two ends is absorbed.
    if (rate === 970) expect(perSecondAt(rate)).toBe(979);
    // A stall's first CATCH_UP_MS is made up (all but 2 %: the bound above spreads some of it into
    // the next stall's); beyond it, sending is lost. A bucket of a fiftieth of a second's tokens, the
    // pacer before 2026-11-30, lost all but the first 20 ms of each: 10 % fewer sends here.
    const lost = stalls.reduce((sum, s) => sum + Math.max(0, s.ms - CATCH_UP_MS), 0);
    expect(sent.length).toBeGreaterThanOrEqual(Math.floor(((rate * (30_000 - lost)) / 1000) * 0.98));
  });
});

/**
 * A stray refusal (the first after a clean stretch) at `at`, then a second one a second later, in the
 * provider's next second whenever its first one opened: the provider meaning it.
 */
async function refusedTwice(pacer: Pacer, time: FakeTime, at = 0): Promise<void> {
  time.t = Math.max(time.t, at);
  void pacer.refused();
  await time.runUntil(at + 1000);
  void pacer.refused();
}

describe("Pacer.refused", () => {
  it("takes a tenth off for a stray refusal, empties the bucket and holds every send for a quarter second", async () => {
    const time = new FakeTime();
    const pacer = new Pacer(1000, time.now, time.sleep);
    const sent = sendForever(pacer, time);
    await time.runUntil(5000);
    const before = sent.length;
    let done = false;
    void pacer.refused().then(() => (done = true));
    expect(pacer.rate).toBe(900);
    await time.runUntil(5249);
    expect(done).toBe(false);
    expect(sent.length).toBe(before);
    await time.runUntil(5250);
    expect(done).toBe(true);
    // The bucket was emptied: after the hold, sends come at the new rate, without a burst.
    await time.runUntil(6250);
    expect(within(sent, 5250, 6250)).toBeLessThanOrEqual(901);
    expect(within(sent, 5250, 6250)).toBeGreaterThanOrEqual(870);
  });

  it(`halves the rate and holds for the provider's 1000 ms window when refused again within ${STRAY_AFTER_MS} ms`, async () => {
    const time = new FakeTime();
    const pacer = new Pacer(80, time.now, time.sleep);
    await refusedTwice(pacer, time, 5000);
    expect(pacer.rate).toBe(36);
    expect(time.sleeps.slice(-1)).toEqual([1000]);
    const sent = sendForever(pacer, time);
    await time.runUntil(6999);
    expect(sent).toEqual([]);
    // A refusal once the stretch is clean again is a stray once more.
    await time.runUntil(6000 + STRAY_AFTER_MS);
    const climbed = pacer.rate;
    expect(climbed).toBeGreaterThan(36);
    void pacer.refused();
    expect(pacer.rate).toBe(Math.floor(climbed * 0.9));
    expect(time.sleeps.slice(-1)).toEqual([250]);
  });

  it("never goes below 1 per second", async () => {
    const time = new FakeTime();
    const pacer = new Pacer(3, time.now, time.sleep);
    await refusedTwice(pacer, time);
    expect(pacer.rate).toBe(1);
    await time.runUntil(2000);
    void pacer.refused();
    expect(pacer.rate).toBe(1);
  });

  it("answers once per hold: refusals during the hold (sends already in flight) change nothing more", async () => {
    const time = new FakeTime();
    const pacer = new Pacer(1000, time.now, time.sleep);
    for (let i = 0; i < 5; i++) void pacer.refused();
    expect(pacer.rate).toBe(900);
    await time.runUntil(1000);
    for (let i = 0; i < 5; i++) void pacer.refused();
    expect(pacer.rate).toBe(450);
    await time.runUntil(2000);
    void pacer.refused();
    expect(pacer.rate).toBe(225);
  });

  // The clean second is counted from the end of the hold; then 10 % (rounded up) per clean second, up to the ceiling.
  it("climbs back by 10 % per clean second of sending, up to the ceiling", async () => {
    const time = new FakeTime();
    const pacer = new Pacer(80, time.now, time.sleep);
    await refusedTwice(pacer, time);
    await time.runUntil(2000);
    expect(pacer.rate).toBe(36);
    const sent = sendForever(pacer, time);
    const rates: number[] = [];
    for (let second = 1; second <= 10; second++) {
      await time.runUntil(second * 1000 + 1999);
      rates.push(pacer.rate);
    }
    expect(rates).toEqual([36, 40, 44, 49, 54, 60, 66, 73, 80, 80]);
    // And the sends followed: fewer in the first clean second than at the ceiling.
    expect(within(sent, 2000, 3000)).toBeLessThanOrEqual(41);
    expect(within(sent, 10000, 11000)).toBeGreaterThanOrEqual(77);
  });

  it("a new refusal restarts the clean second", async () => {
    const time = new FakeTime();
    const pacer = new Pacer(80, time.now, time.sleep);
    sendForever(pacer, time);
    await time.runUntil(500);
    void pacer.refused();
    await time.runUntil(1600);
    void pacer.refused();
    expect(pacer.rate).toBe(36);
    await time.runUntil(3599);
    expect(pacer.rate).toBe(36);
  });

  it("holds every take while the provider's 1000 ms window passes", async () => {
    const time = new FakeTime();
    const pacer = new Pacer(80, time.now, time.sleep);
    const sent = sendForever(pacer, time);
    await time.runUntil(500);
    await refusedTwice(pacer, time, 500);
    const before = sent.length;
    await time.runUntil(2499);
    expect(sent.length).toBe(before);
  });

  // The provider's second that refused may have opened long before the refusal (a pause, then a burst
  // of queued sends, fills it early): once the stray's quarter second is over, it may still be running.
  it("refused again within a second of a stray: holds until that second has ended, and takes nothing more off", async () => {
    const time = new FakeTime();
    const pacer = new Pacer(1000, time.now, time.sleep);
    const sent = sendForever(pacer, time);
    await time.runUntil(5000);
    void pacer.refused();
    expect(pacer.rate).toBe(900);
    await time.runUntil(5400);
    const before = sent.length;
    void pacer.refused();
    expect(pacer.rate).toBe(900);
    expect(time.sleeps.slice(-1)).toEqual([600]);
    await time.runUntil(5999);
    expect(sent.length).toBe(before);
    // Then the rate it had: no halving, and no burst (the bucket was emptied).
    await time.runUntil(7000);
    expect(within(sent, 6000, 7000)).toBeLessThanOrEqual(901);
    expect(within(sent, 6000, 7000)).toBeGreaterThanOrEqual(870);
    // A refusal in the provider's next second, still within the stretch, is the provider meaning it.
    void pacer.refused();
    expect(pacer.rate).toBe(450);
  });
});
