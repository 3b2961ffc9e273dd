import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { openDatabase } from "@/lib/ports/db/open";
import type { DatabaseHandle } from "@/lib/ports/db/types";
import { projects } from "@/lib/db/schema";
import { markDispatched } from "@/lib/domain/broadcasts/attempts";
import type { Outgoing } from "@/lib/domain/broadcasts/claim";
import { createTestApp, type TestApp } from "../support/app";

/**
 * On Postgres every drizzle query is a server-side prepared statement (lib/ports/db/open.ts): parsed
 * and planned once per connection, then only bound and executed. One connection, so the session's
 * pg_prepared_statements shows what that connection prepared.
 */
let app: TestApp;
let single: DatabaseHandle | null = null;
beforeAll(async () => {
  app = await createTestApp();
  if (app.kind === "postgres") single = await openDatabase({ databaseUrl: app.databaseUrl!, migrate: false, max: 1 });
});
afterAll(async () => {
  await single?.close();
  await app?.close();
});

describe("prepared statements on Postgres", () => {
  it("a drizzle query is prepared once and reused by later executions", async ({ skip }) => {
    if (!single) return skip("PGlite runs in-process: there is no statement protocol to save");
    const db = single.db;
    for (const id of ["proj_a", "proj_b", "proj_c"]) await db.select({ id: projects.id }).from(projects).where(eq(projects.id, id));
    const rows = (await db.execute(
      sql`select count(*)::int as n from pg_prepared_statements where statement like ${'select "id" from "projects" where "projects"."id" = $1%'}`,
    )) as unknown as { n: number }[];
    // One statement for all three executions: prepared (an unnamed statement would not be listed at all).
    expect(rows[0]!.n).toBe(1);
  });

  // A broadcast marks each chunk of its sends dispatched (broadcasts/attempts.ts) thousands of times a
  // run. The chunk's ids travel as one array parameter each, so every size runs the same statement;
  // with a placeholder per id, each size was a text of its own, built parameter by parameter in the
  // worker and parsed and planned again by Postgres.
  it("a broadcast chunk's dispatch mark is one statement whatever the chunk's size", async ({ skip }) => {
    if (!single) return skip("PGlite runs in-process: there is no statement protocol to save");
    const outgoing = (n: number) => Array.from({ length: n }, (_, i) => ({ recipientId: `bcr_none${n}_${i}`, messageId: `msg_none${n}_${i}` }) as Outgoing);
    for (const n of [1, 7, 49]) expect(await markDispatched(single.db, outgoing(n), new Date())).toEqual([]);
    const rows = (await single.db.execute(
      sql`select count(*)::int as n from pg_prepared_statements where statement like ${'update "broadcast_recipients" set "dispatched_at"%'}`,
    )) as unknown as { n: number }[];
    expect(rows[0]!.n).toBe(1);
  });
});
