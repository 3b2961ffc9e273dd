import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql, type SQL } from "drizzle-orm";
import { fetchNextJob } from "pg-boss/dist/plans.js";
import { executeRows } from "@/lib/ports/db/bulk";
import { createTestApp, type TestApp } from "../support/app";
import { untypedQueue } from "../support/queue";

/**
 * pg-boss's fetch as patched (patches/pg-boss+12.35.0.patch): its UPDATE finds the jobs its CTE locked
 * by their ctid. Unpatched, it matched them by the queue's name and id, and with statistics made while
 * the queue had no jobs Postgres walked every job the queue keeps (completed ones stay for days) once
 * per fetch: 168 buffers a fetch in the bench's keyword phase, growing with the queue.
 */
const QUEUE = "test.fetch-plan";
const OTHER = "test.fetch-plan-other";
const KEPT = 2_000;

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
  app.runtime.ports.queue.define(QUEUE, {}, async () => {});
  app.runtime.ports.queue.define(OTHER, {}, async () => {});
  await app.runtime.ports.queue.prepare();
});
afterAll(() => app?.close());

interface PlanNode {
  "Actual Rows": number;
  "Shared Hit Blocks": number;
  "Shared Read Blocks": number;
}

describe("pg-boss's fetch, on statistics made while its queue had no jobs", () => {
  beforeAll(async () => {
    // The statistics are made while another queue has jobs and this one none; then it finishes KEPT.
    await app.db.execute(sql`
      insert into pgboss.job (name, state, data, started_on, completed_on)
      select ${OTHER}, 'completed', '{}'::jsonb, now(), now() from generate_series(1, ${KEPT})`);
    await app.db.execute(sql`analyze pgboss.job`);
    await app.db.execute(sql`
      insert into pgboss.job (name, state, data, started_on, completed_on)
      select ${QUEUE}, 'completed', '{}'::jsonb, now(), now() from generate_series(1, ${KEPT})`);
    await untypedQueue(app.runtime.ports.queue).send(QUEUE, { n: 1 }, { group: "proj_a" });
  });

  // The webhook deliveries' queue fetches with a per-project cap, every other queue without.
  it.each([
    { caps: "without a group cap", groupConcurrency: undefined },
    { caps: "with a group cap", groupConcurrency: 2 },
  ])("reads the job it takes, not every job its queue keeps ($caps)", async ({ groupConcurrency }) => {
    const [queue] = await executeRows<{ table: string }>(app.db, sql`select table_name as "table" from pgboss.queue where name = ${QUEUE}`);
    const fetch = fetchNextJob({
      schema: "pgboss",
      table: queue!.table,
      name: QUEUE,
      policy: "standard",
      limit: 5,
      includeMetadata: true,
      ignoreSingletons: null,
      ...(groupConcurrency ? { groupConcurrency } : {}),
    });
    let plan: PlanNode | undefined;
    // Explained with ANALYZE, the fetch does take the job: the transaction rolls it back for the next case.
    await app.db
      .transaction(async (tx) => {
        const params = (fetch.values ?? []).map((value) => sql`${value}`);
        const text = params.length === 0 ? sql.raw(fetch.text) : bindPositional(fetch.text, params);
        const [row] = await executeRows<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(tx, sql`explain (analyze, buffers, format json) ${text}`);
        plan = row!["QUERY PLAN"][0].Plan;
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!plan) throw error;
      });
    if (!plan) throw new Error("no plan");
    expect(plan["Actual Rows"]).toBe(1);
    expect(plan["Shared Hit Blocks"] + plan["Shared Read Blocks"]).toBeLessThan(KEPT / 10);
  });
});

/** The fetch's $1, $2 … bound as drizzle parameters, in order. */
function bindPositional(text: string, params: SQL[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  parts.forEach((part, i) => chunks.push(i % 2 === 0 ? sql.raw(part) : params[Number(part) - 1]!));
  return sql.join(chunks, sql.raw(""));
}
