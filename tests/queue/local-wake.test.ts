import { afterEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { jobPayload, type JobInsert } from "@/lib/ports/queue/job-insert";
import { executeRows } from "@/lib/ports/db/bulk";
import type { JobCatalogShape, JobQueue } from "@/lib/ports/queue";
import { createTestApp, type TestApp } from "../support/app";
import { untypedQueue } from "../support/queue";

/**
 * A job that inserts a job for a queue its own process pumps (an ingest's webhook delivery) sends no
 * NOTIFY (lib/ports/queue runOne): the process wakes that pump itself once the job has ended. Outside
 * a job (a web request), or for a queue this process does not pump, the NOTIFY stays.
 */
let app: TestApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

async function until(check: () => boolean, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return check();
}

/** The job alone in a statement, through `insertion`; answers whether it sent pg-boss's NOTIFY. */
async function insertWith(db: TestApp["db"], insertion: JobInsert, name: string, data: object): Promise<number> {
  const [row] = await executeRows<{ notified: number }>(
    db,
    sql`with "mine" as (select 1 as one)${insertion.ctes("job", sql`${jobPayload(name, data)}`)} select ${insertion.notifiedColumn("job")} as "notified" from "mine"`,
  );
  return row!.notified;
}

describe("a job's own jobs for this process", () => {
  it("go without NOTIFY and still run at once: the pump is woken when the job ends (the idle poll is a minute)", async () => {
    app = await createTestApp();
    const db = app.db;
    const queue = untypedQueue(app.runtime.ports.queue);
    const notified: number[] = [];
    const consumed: number[] = [];
    queue.define<{ n: number }>("test.producer", {}, async (data, job) => {
      const scoped = (job as { queue?: JobQueue<JobCatalogShape> }).queue;
      expect(scoped).toBeDefined();
      notified.push(await insertWith(db, scoped!.insertion("test.consumer"), "test.consumer", { n: data.n }));
    });
    queue.define<{ n: number }>("test.consumer", {}, async (data) => {
      consumed.push(data.n);
    });
    await queue.prepare();
    // Outside any job the insert notifies, as before.
    expect(await insertWith(db, queue.insertion("test.consumer"), "test.consumer", { n: 0 })).toBe(1);
    await queue.startWorkers({ pollingIntervalSeconds: 60 });
    expect(await until(() => consumed.includes(0))).toBe(true);
    // Let both pumps go idle past their fetch gap, so only a NOTIFY or the wake can start the consumer.
    await new Promise((r) => setTimeout(r, 200));
    await queue.send("test.producer", { n: 1 });
    expect(await until(() => consumed.includes(1))).toBe(true);
    expect(notified).toEqual([0]);
  });
});
