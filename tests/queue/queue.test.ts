import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestApp, type TestApp } from "../support/app";
import { untypedQueue } from "../support/queue";
import { scheduleMaintenance } from "@/lib/jobs";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

describe("job queue port", () => {
  it("hands each job its retry metadata, and a failing job is retried up to its limit", async () => {
    const seen: { retryCount: number; retryLimit: number }[] = [];
    app.runtime.ports.queue.define<{ n: number }>("test.flaky", { retryLimit: 2, retryDelay: 0 }, async (_data, job) => {
      seen.push({ retryCount: job.retryCount, retryLimit: job.retryLimit });
      throw new Error("boom");
    });
    await app.runtime.ports.queue.prepare();
    await untypedQueue(app.runtime.ports.queue).send("test.flaky", { n: 1 });
    for (let i = 0; i < 10 && seen.length < 3; i++) await app.runtime.ports.queue.drain();
    expect(seen).toEqual([
      { retryCount: 0, retryLimit: 2 },
      { retryCount: 1, retryLimit: 2 },
      { retryCount: 2, retryLimit: 2 },
    ]);
  });

  it("a job sent inside a transaction exists only if the transaction commits", async () => {
    const ran: number[] = [];
    app.runtime.ports.queue.define<{ n: number }>("test.tx", {}, async (data) => {
      ran.push(data.n);
    });
    await app.runtime.ports.queue.prepare();
    await app.db.transaction(async (tx) => {
      await untypedQueue(app.runtime.ports.queue).send("test.tx", { n: 1 }, { tx });
    });
    await expect(
      app.db.transaction(async (tx) => {
        await untypedQueue(app.runtime.ports.queue).send("test.tx", { n: 2 }, { tx });
        await tx.execute(sql`select 1`);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await app.runtime.ports.queue.drain();
    expect(ran).toEqual([1]);
  });
});

describe("running workers", () => {
  it("drain a backlog promptly instead of one job per slot per notify interval", async () => {
    const app2 = await createTestApp();
    try {
      const done: number[] = [];
      app2.runtime.ports.queue.define<{ n: number }>("test.backlog", {}, async (data) => {
        done.push(data.n);
      });
      await app2.runtime.ports.queue.prepare();
      // The backlog exists before any worker listens: no NOTIFY will wake them for these.
      for (let n = 0; n < 25; n++) await untypedQueue(app2.runtime.ports.queue).send("test.backlog", { n });
      await app2.runtime.ports.queue.startWorkers({ pollingIntervalSeconds: 0.5 });
      const deadline = Date.now() + 15_000;
      while (done.length < 25 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    } finally {
      await app2.close();
    }
  });
});

describe("recurring maintenance (media.expire)", () => {
  async function liveChains(): Promise<number> {
    const result = (await app.db.execute(
      sql`select count(*)::int as n from pgboss.job where name = 'media.expire' and state in ('created', 'retry', 'active')`,
    )) as unknown;
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { n: number }[];
    return Number(rows[0]!.n);
  }

  it("five worker starts leave one chain, and a run schedules exactly one successor", async () => {
    for (let start = 0; start < 5; start++) await scheduleMaintenance(app.runtime.ports.queue);
    expect(await liveChains()).toBe(1);
    await app.runtime.ports.queue.drain(); // runs the due one; its successor waits 5 minutes
    expect(await liveChains()).toBe(1);
    await scheduleMaintenance(app.runtime.ports.queue);
    expect(await liveChains()).toBe(1);
  });

  it("two chains enqueued by simultaneous starts converge to one at their next run", async () => {
    await app.db.execute(sql`delete from pgboss.job where name = 'media.expire'`);
    await app.runtime.ports.queue.send("media.expire", {}, { singletonKey: "media.expire" });
    await app.runtime.ports.queue.send("media.expire", {}, { singletonKey: "media.expire" });
    expect(await liveChains()).toBe(2);
    await app.runtime.ports.queue.drain();
    expect(await liveChains()).toBe(1);
  });
});
