import { afterEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { jobPayload, statementWithJob } from "@/lib/ports/queue/job-insert";
import { executeRows } from "@/lib/ports/db/bulk";
import { createTestApp, type TestApp } from "../support/app";
import { untypedQueue } from "../support/queue";

/**
 * A statement that runs its job here (statementWithJob's runHere, job-insert.ts): in a process whose
 * worker runs the queue and has a free slot, the job is written already taken by this process and run
 * once the statement has committed, with no NOTIFY and no fetch. Everything else is a fetched job's:
 * its completion, its retries, and pg-boss's expiry when the process dies before settling it.
 */
let app: TestApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

const runHereStatement = statementWithJob(
  "test_job_run_here",
  (insertion) => {
    const payload = sql`${sql.placeholder("job")}`;
    // `fail` 1 makes the statement fail (a division by zero): nothing it wrote is kept.
    return sql`with "mine" as (select 1 as one)${insertion.ctes("job", payload)} select ${insertion.notifiedColumn("job")} as "notified" from "mine" where 1 / (1 - ${sql.placeholder("fail")}::int) = 1`;
  },
  { runHere: true },
);

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return check();
}

interface JobRowFacts {
  state: string;
  retry_count: number;
  taken_at_insert: boolean;
}

async function jobsOf(marker: number): Promise<JobRowFacts[]> {
  return executeRows<JobRowFacts>(
    app!.db,
    sql`select state::text as state, retry_count, coalesce(started_on = created_on, false) as taken_at_insert from pgboss.job where (data->>'marker')::int = ${marker}`,
  );
}

describe("a job run where its statement wrote it", () => {
  it("runs in this process's worker without being fetched, is completed, and frees its slot when the statement fails", async () => {
    app = await createTestApp();
    const queue = untypedQueue(app.runtime.ports.queue);
    const ran: { marker: number; retryCount: number }[] = [];
    queue.define<{ marker: number }>("test.run-here", { localConcurrency: 1, retryLimit: 3 }, async (data, job) => {
      ran.push({ marker: data.marker, retryCount: job.retryCount });
    });
    await queue.prepare();
    // Polling once a minute: a job that waited for a fetch would not run within this test.
    await queue.startWorkers({ pollingIntervalSeconds: 60 });
    const insertion = queue.insertion("test.run-here");

    await runHereStatement(app.db, insertion, { job: jobPayload("test.run-here", { marker: 1 }), fail: 0 });
    expect(await until(() => ran.length === 1)).toBe(true);
    expect(ran).toEqual([{ marker: 1, retryCount: 0 }]);
    expect(await until(async () => (await jobsOf(1))[0]?.state === "completed")).toBe(true);
    // Taken in the statement that wrote it (a fetch would have taken it later).
    expect(await jobsOf(1)).toEqual([{ state: "completed", retry_count: 0, taken_at_insert: true }]);

    await expect(runHereStatement(app.db, insertion, { job: jobPayload("test.run-here", { marker: 2 }), fail: 1 })).rejects.toThrow();
    expect(await jobsOf(2)).toEqual([]);
    // The queue's one slot is free again: the next statement's job runs here too.
    await runHereStatement(app.db, insertion, { job: jobPayload("test.run-here", { marker: 3 }), fail: 0 });
    expect(await until(() => ran.length === 2)).toBe(true);
    expect(ran[1]).toEqual({ marker: 3, retryCount: 0 });
    expect((await jobsOf(3))[0]?.taken_at_insert).toBe(true);
  });

  it("is written for the workers to fetch when this process runs no worker for its queue", async () => {
    app = await createTestApp();
    const queue = untypedQueue(app.runtime.ports.queue);
    const ran: number[] = [];
    queue.define<{ marker: number }>("test.run-here-elsewhere", {}, async (data) => void ran.push(data.marker));
    await queue.prepare();
    await runHereStatement(app.db, queue.insertion("test.run-here-elsewhere"), { job: jobPayload("test.run-here-elsewhere", { marker: 4 }), fail: 0 });
    expect(await jobsOf(4)).toEqual([{ state: "created", retry_count: 0, taken_at_insert: false }]);
    await queue.drain();
    expect(ran).toEqual([4]);
  });

  it("is written for a fetch on a queue with a group cap (only a fetch counts a group's jobs against it)", async () => {
    app = await createTestApp();
    const queue = untypedQueue(app.runtime.ports.queue);
    const ran: number[] = [];
    queue.define<{ marker: number }>("test.run-here-grouped", { localConcurrency: 4, groupConcurrency: 1 }, async (data) => void ran.push(data.marker));
    await queue.prepare();
    await queue.startWorkers({ pollingIntervalSeconds: 0.2 });
    await runHereStatement(app.db, queue.insertion("test.run-here-grouped"), {
      job: jobPayload("test.run-here-grouped", { marker: 6 }, { group: "proj_a" }),
      fail: 0,
    });
    expect(await until(() => ran.length === 1)).toBe(true);
    expect(await jobsOf(6)).toEqual([expect.objectContaining({ taken_at_insert: false })]);
  });

  it("goes back to the queue once its expiry has passed when the process that took it never settles it", async () => {
    app = await createTestApp();
    const queue = untypedQueue(app.runtime.ports.queue);
    const ran: { marker: number; retryCount: number }[] = [];
    queue.define<{ marker: number }>("test.run-here-lost", { expireInSeconds: 1, retryLimit: 2, retryDelay: 0 }, async (data, job) => {
      ran.push({ marker: data.marker, retryCount: job.retryCount });
    });
    await queue.prepare();
    await queue.startWorkers({ pollingIntervalSeconds: 0.2 });
    // A process that took the job and died: its slot's statement committed, and nothing ran it.
    const slot = queue.insertion("test.run-here-lost").claim!()!;
    expect(slot).not.toBeNull();
    const lost = statementWithJob("test_job_lost", (insertion) => {
      const payload = sql`${sql.placeholder("job")}`;
      return sql`with "mine" as (select 1 as one)${insertion.ctes("job", payload)} select ${insertion.notifiedColumn("job")} as "notified" from "mine"`;
    });
    await lost(app.db, slot.insertion, { job: jobPayload("test.run-here-lost", { marker: 5 }) });
    slot.release();
    expect(await jobsOf(5)).toEqual([{ state: "active", retry_count: 0, taken_at_insert: true }]);

    await new Promise((r) => setTimeout(r, 1_500));
    await queue.maintain();
    expect(await until(() => ran.length === 1)).toBe(true);
    expect(ran).toEqual([{ marker: 5, retryCount: 1 }]);
  });
});
