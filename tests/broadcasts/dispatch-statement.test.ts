import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase } from "@/lib/ports/db/open";
import type { DatabaseHandle } from "@/lib/ports/db/types";
import { markDispatched } from "@/lib/domain/broadcasts/attempts";
import type { Outgoing } from "@/lib/domain/broadcasts/claim";
import { createTestApp, type TestApp } from "../support/app";

/**
 * A broadcast marks each chunk of its sends dispatched (attempts.ts markDispatched) thousands of times
 * a run: the chunk's ids travel as one array parameter each, so every chunk size runs the same
 * prepared statement. With one placeholder per id, each size was a statement text of its own, built
 * parameter by parameter in the worker and parsed and planned again by Postgres.
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

const outgoing = (n: number): Outgoing[] =>
  Array.from({ length: n }, (_, i) => ({ recipientId: `bcr_none${n}_${i}`, messageId: `msg_none${n}_${i}` }) as Outgoing);

describe("markDispatched's statement", () => {
  it("is one prepared statement whatever the chunk's size", async ({ skip }) => {
    if (!single) return skip("PGlite runs in-process: there is no statement protocol to save");
    const db = single.db;
    const now = new Date();
    for (const n of [1, 7, 49]) expect(await markDispatched(db, outgoing(n), now)).toEqual([]);
    const rows = (await db.execute(
      sql`select count(*)::int as n from pg_prepared_statements where statement like ${'update "broadcast_recipients" set "dispatched_at"%'}`,
    )) as unknown as { n: number }[];
    expect(rows[0]!.n).toBe(1);
  });
});
