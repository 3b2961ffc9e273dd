import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createWaker } from "@/lib/ports/queue/wake";

/**
 * The coalesced wake-up (lib/ports/queue/wake.ts): a burst of job inserts costs a NOTIFY or two, and
 * every wake() is still followed by a NOTIFY sent after it (a pump woken by it sees that job).
 */
let clock = 0;
let sent: { queue: string; at: number }[] = [];
let settle: (() => void)[] = [];
/** A NOTIFY that stays in flight until the test settles it, as a database round trip would. */
const notify = (queue: string) =>
  new Promise<void>((resolve) => {
    sent.push({ queue, at: clock });
    settle.push(resolve);
  });
const settleAll = async () => {
  for (const resolve of settle.splice(0)) resolve();
  await vi.advanceTimersByTimeAsync(0);
};
const advance = async (ms: number) => {
  clock += ms;
  await vi.advanceTimersByTimeAsync(ms);
};

beforeEach(() => {
  vi.useFakeTimers();
  clock = 0;
  sent = [];
  settle = [];
});
afterEach(() => vi.useRealTimers());

describe("the queue's wake-up", () => {
  it("sends one NOTIFY for a burst of wakes, and one more after it for the wakes that came while it was in flight", async () => {
    const waker = createWaker(notify, 10, () => clock);
    waker.wake("ingest.process");
    expect(sent).toEqual([{ queue: "ingest.process", at: 0 }]);
    // 99 more while the first is in flight: none is sent now, one is owed.
    for (let i = 0; i < 99; i++) {
      await advance(0.05);
      waker.wake("ingest.process");
    }
    expect(sent).toHaveLength(1);
    await settleAll();
    // The owed NOTIFY waits for the gap since the first was sent, then goes once for all 99.
    expect(sent).toHaveLength(1);
    await advance(10);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.at).toBeGreaterThanOrEqual(10);
    // Every wake came before the last NOTIFY was sent.
    expect(sent[1]!.at).toBeGreaterThan(99 * 0.05);
    await settleAll();
    await advance(100);
    expect(sent).toHaveLength(2);
  });

  it("sends at once when nothing is in flight and the gap has passed, and keeps queues apart", async () => {
    const waker = createWaker(notify, 10, () => clock);
    waker.wake("a");
    waker.wake("b");
    expect(sent.map((s) => s.queue)).toEqual(["a", "b"]);
    await settleAll();
    await advance(25);
    waker.wake("a");
    expect(sent.map((s) => s.queue)).toEqual(["a", "b", "a"]);
  });

  it("a failed NOTIFY is not retried, and the next wake still sends", async () => {
    let fail = true;
    const attempts: number[] = [];
    const waker = createWaker(
      async () => {
        attempts.push(clock);
        if (fail) throw new Error("database restarting");
      },
      10,
      () => clock,
    );
    waker.wake("q");
    await advance(0);
    await advance(50);
    expect(attempts).toHaveLength(1);
    fail = false;
    waker.wake("q");
    await advance(0);
    expect(attempts).toHaveLength(2);
  });

  it("sends nothing after close, not even what was owed", async () => {
    const waker = createWaker(notify, 10, () => clock);
    waker.wake("q");
    waker.wake("q");
    await settleAll();
    waker.close();
    await advance(50);
    waker.wake("q");
    await advance(50);
    expect(sent).toHaveLength(1);
  });
});
