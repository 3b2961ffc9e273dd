import { afterEach, describe, expect, it } from "vitest";
import { jobPayload } from "@/lib/ports/queue/job-insert";
import { createTestApp, type TestApp } from "../support/app";
import { jobAloneStatement, untypedQueue } from "../support/queue";

/**
 * The workers' scheduling (lib/ports/queue/pump.ts) on the real queue: each job is settled on its
 * own, a slow job holds only its own slot, a group's cap holds across the process, and a NOTIFY wakes
 * an idle worker long before its poll.
 */
let app: TestApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

async function until(check: () => boolean, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return check();
}

describe("queue workers", () => {
  it("keep running other jobs while a slow one holds its slot, and cap each group", async () => {
    app = await createTestApp();
    const held = gate();
    const running = new Map<string, number>();
    const peak = new Map<string, number>();
    const done: string[] = [];
    app.runtime.ports.queue.define<{ group: string; n: number }>("test.groups", { localConcurrency: 6, groupConcurrency: 2 }, async (data) => {
      running.set(data.group, (running.get(data.group) ?? 0) + 1);
      peak.set(data.group, Math.max(peak.get(data.group) ?? 0, running.get(data.group)!));
      try {
        if (data.group === "slow") await held.opened;
        else await new Promise((r) => setTimeout(r, 100));
      } finally {
        running.set(data.group, running.get(data.group)! - 1);
      }
      done.push(`${data.group}-${data.n}`);
    });
    await app.runtime.ports.queue.prepare();
    // The slow group's jobs are older, so they are fetched first.
    for (let n = 0; n < 4; n++) await untypedQueue(app.runtime.ports.queue).send("test.groups", { group: "slow", n }, { group: "slow" });
    for (let n = 0; n < 12; n++) await untypedQueue(app.runtime.ports.queue).send("test.groups", { group: "fast", n }, { group: "fast" });
    await app.runtime.ports.queue.startWorkers({ pollingIntervalSeconds: 0.5 });

    // Every fast job finishes while two slow ones are stuck: their slots are the only ones held.
    expect(await until(() => done.filter((d) => d.startsWith("fast")).length === 12)).toBe(true);
    expect(done.some((d) => d.startsWith("slow"))).toBe(false);
    expect(running.get("slow")).toBe(2);
    held.open();
    expect(await until(() => done.length === 16)).toBe(true);
    expect(peak.get("slow")).toBe(2);
    // Four slots were free while the slow group held two, but the fast group's cap is two as well.
    expect(peak.get("fast")).toBe(2);
  });

  it("wake on a new job's NOTIFY instead of waiting for the poll", async () => {
    app = await createTestApp();
    const done: number[] = [];
    app.runtime.ports.queue.define<{ n: number }>("test.notify", {}, async (data) => {
      done.push(data.n);
    });
    await app.runtime.ports.queue.prepare();
    // A 60 s backstop poll: the job can only run within the bound below if the NOTIFY woke the worker.
    await app.runtime.ports.queue.startWorkers({ pollingIntervalSeconds: 60 });
    await new Promise((r) => setTimeout(r, 300));
    await untypedQueue(app.runtime.ports.queue).send("test.notify", { n: 1 });
    expect(await until(() => done.length === 1, 15_000)).toBe(true);
  });

  it("wake on a job inserted by a statement of its own, which leaves the NOTIFY to the queue's coalesced wake-up", async () => {
    const own = (app = await createTestApp());
    const done: number[] = [];
    const queue = untypedQueue(own.runtime.ports.queue);
    queue.define<{ n: number }>("test.wake-after", {}, async (data) => {
      done.push(data.n);
    });
    await queue.prepare();
    await queue.startWorkers({ pollingIntervalSeconds: 60 });
    await new Promise((r) => setTimeout(r, 300));
    // A burst: the statements carry no NOTIFY (notified 0), and every job still runs long before the 60 s poll.
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, n) => jobAloneStatement(own.db, queue.insertion("test.wake-after"), { job: jobPayload("test.wake-after", { n }) })),
    );
    expect(results.flat()).toEqual(Array.from({ length: 20 }, () => ({ notified: 0 })));
    expect(await until(() => done.length === 20, 15_000)).toBe(true);
    // And one more after the burst, once the workers are idle again.
    await new Promise((r) => setTimeout(r, 300));
    await jobAloneStatement(own.db, queue.insertion("test.wake-after"), { job: jobPayload("test.wake-after", { n: 20 }) });
    expect(await until(() => done.length === 21, 15_000)).toBe(true);
  });

  it("record each job's result on its own: a failure is retried, its neighbours are not run again", async () => {
    app = await createTestApp();
    const runs = new Map<number, number>();
    app.runtime.ports.queue.define<{ n: number }>("test.mixed", { localConcurrency: 5, retryLimit: 1, retryDelay: 0 }, async (data) => {
      runs.set(data.n, (runs.get(data.n) ?? 0) + 1);
      if (data.n === 2 && runs.get(2) === 1) throw new Error("first attempt fails");
    });
    await app.runtime.ports.queue.prepare();
    for (let n = 0; n < 5; n++) await untypedQueue(app.runtime.ports.queue).send("test.mixed", { n });
    await app.runtime.ports.queue.startWorkers({ pollingIntervalSeconds: 0.5 });
    expect(await until(() => runs.get(2) === 2)).toBe(true);
    // Give a wrongly failed batch time to come back, then check nothing else ran twice.
    await new Promise((r) => setTimeout(r, 1500));
    expect([...runs.entries()].sort((a, b) => a[0] - b[0])).toEqual([
      [0, 1],
      [1, 1],
      [2, 2],
      [3, 1],
      [4, 1],
    ]);
  });
});

describe("settling a job while the database blinks", () => {
  it("a completion or failure write is retried until it lands, then given up after the last delay", async () => {
    const { settleWithRetries } = await import("@/lib/ports/queue/pump");
    let calls = 0;
    await settleWithRetries(async () => {
      if (++calls < 3) throw Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" });
    }, [1, 1, 1]);
    expect(calls).toBe(3);

    let tries = 0;
    await expect(
      settleWithRetries(async () => {
        tries++;
        throw new Error("still down");
      }, [1, 1]),
    ).rejects.toThrow("still down");
    expect(tries).toBe(3);
  });

  it("the pump completes a job whose first completion write failed, without waiting for expiry", async () => {
    const { QueuePump } = await import("@/lib/ports/queue/pump");
    const job = { id: "job-1", name: "t", data: {} } as never;
    let fetched = false;
    let completeCalls = 0;
    const completed: string[] = [];
    const pump = new QueuePump(
      {
        fetch: async () => (fetched ? [] : ((fetched = true), [job])),
        complete: async (jobs) => {
          if (++completeCalls === 1) throw Object.assign(new Error("the database system is shutting down"), { code: "57P01" });
          completed.push(...jobs.map((j) => j.id));
        },
        fail: async () => {},
      },
      { capacity: 2, pollMs: 50, run: async () => {}, onError: () => {} },
    );
    pump.start();
    expect(await until(() => completed.length === 1, 5_000)).toBe(true);
    expect(completed).toEqual(["job-1"]);
    expect(completeCalls).toBe(2);
    await pump.stop(1000);
  });
});
