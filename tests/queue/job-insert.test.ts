import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { jobPayload } from "@/lib/ports/queue/job-insert";
import { executeRows } from "@/lib/ports/db/bulk";
import type { Db } from "@/lib/ports/db/types";
import { createTestApp, type TestApp } from "../support/app";
import { jobAloneStatement, untypedQueue } from "../support/queue";

/**
 * A job inserted as part of the caller's own statement (lib/ports/queue/job-insert.ts) must be the
 * row pg-boss's send writes, column by column: it is pg-boss's insert, composed, and this is where a
 * pg-boss upgrade that changes its shape fails first. And the worker runs it like any other job.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

/** The columns a send decides (everything but what differs per job: id, data, times). */
async function jobRow(db: Db, marker: number) {
  const [row] = await executeRows<Record<string, unknown>>(
    db,
    sql`select name, priority, state, retry_limit, retry_delay, retry_backoff, retry_delay_max, expire_seconds, deletion_seconds,
          singleton_key, group_id, group_tier, policy, dead_letter, heartbeat_seconds, blocked, blocking, pending_dependencies,
          extract(epoch from keep_until - start_after)::int as kept_for, start_after <= now() + interval '1 second' as due
        from pgboss.job where (data->>'marker')::int = ${marker}`,
  );
  return row;
}

/** The job alone in a statement of the caller's (a first CTE stands for the caller's own row). */
async function insertInStatement(name: string, data: object, options: { group?: string } = {}) {
  const insertion = untypedQueue(app.runtime.ports.queue).insertion(name);
  const payload = sql`${jobPayload(name, data, options)}`;
  const [row] = await executeRows<{ notified: number }>(
    app.db,
    sql`with "mine" as (select 1 as one)${insertion.ctes("job", payload)} select ${insertion.notifiedColumn("job")} as "notified" from "mine"`,
  );
  return row;
}

describe("a job inserted in the caller's statement", () => {
  it("is the row pg-boss's send writes, for a plain queue and for a grouped one", async () => {
    const ran: number[] = [];
    const queue = untypedQueue(app.runtime.ports.queue);
    queue.define<{ marker: number }>("test.in-statement", { retryLimit: 3, retryDelay: 2, expireInSeconds: 40 }, async (data) => {
      ran.push(data.marker);
    });
    queue.define<{ marker: number }>("test.in-statement-grouped", { groupConcurrency: 2 }, async (data) => {
      ran.push(data.marker);
    });
    await queue.prepare();

    await queue.send("test.in-statement", { marker: 1 });
    const composed = await insertInStatement("test.in-statement", { marker: 2 });
    expect(composed?.notified).toBe(1);
    const sent = await jobRow(app.db, 1);
    expect(sent).toMatchObject({ name: "test.in-statement", retry_limit: 3, retry_delay: 2, expire_seconds: 40, due: true });
    expect(await jobRow(app.db, 2)).toEqual(sent);

    await queue.send("test.in-statement-grouped", { marker: 3 }, { group: "proj_a" });
    await insertInStatement("test.in-statement-grouped", { marker: 4 }, { group: "proj_a" });
    const grouped = await jobRow(app.db, 3);
    expect(grouped).toMatchObject({ group_id: "proj_a" });
    expect(await jobRow(app.db, 4)).toEqual(grouped);

    await queue.drain();
    expect(ran.sort()).toEqual([1, 2, 3, 4]);
  });

  it("leaves the NOTIFY out of a statement of its own (the queue wakes the workers after it), and keeps it in a transaction", async () => {
    const queue = untypedQueue(app.runtime.ports.queue);
    queue.define<{ marker: number }>("test.in-statement-wake", {}, async () => {});
    await queue.prepare();
    const insertion = queue.insertion("test.in-statement-wake");
    const job = (marker: number) => ({ job: jobPayload("test.in-statement-wake", { marker }) });
    expect(await jobAloneStatement(app.db, insertion, job(5))).toEqual([{ notified: 0 }]);
    expect(await app.db.transaction((tx) => jobAloneStatement(tx, insertion, job(6)))).toEqual([{ notified: 1 }]);
    expect(await jobRow(app.db, 5)).toEqual(await jobRow(app.db, 6));
  });

  it("refuses a queue that was never prepared instead of writing a job nothing runs", () => {
    expect(() => untypedQueue(app.runtime.ports.queue).insertion("test.never-defined")).toThrow(/was not prepared/);
  });
});
