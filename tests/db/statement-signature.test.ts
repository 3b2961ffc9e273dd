import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase } from "@/lib/ports/db/open";
import type { DatabaseHandle } from "@/lib/ports/db/types";
import { createTestApp, type TestApp } from "../support/app";

/**
 * postgres-js finds a connection's prepared statement by its signature, the parameter types and the
 * text. The signature is memoised per text (patches/postgres+3.4.9.patch); the types must stay part of
 * it, or one text run with a boolean and then with a bigint would reuse the statement prepared for the
 * boolean. One connection, so the second run meets the first one's statement.
 */
let app: TestApp;
let db: DatabaseHandle | null = null;

beforeAll(async () => {
  app = await createTestApp();
  if (app.kind !== "postgres") return;
  db = await openDatabase({ databaseUrl: app.databaseUrl!, migrate: false, max: 1 });
});
afterAll(async () => {
  await db?.close();
  await app?.close();
});

const typeOf = async (handle: DatabaseHandle, value: unknown) => {
  const rows = (await handle.db.execute(sql`select pg_typeof(${value})::text as "type", ${value}::text as "text"`)) as unknown as {
    type: string;
    text: string;
  }[];
  return rows[0]!;
};

describe("a prepared statement's signature on Postgres", () => {
  it("keeps the parameter types: one text run with a boolean, a bigint and a boolean again is prepared per type", async ({ skip }) => {
    if (!db) return skip("PGlite runs in-process: postgres-js is not in the way");
    expect(await typeOf(db, true)).toEqual({ type: "boolean", text: "true" });
    expect(await typeOf(db, 20n)).toEqual({ type: "bigint", text: "20" });
    expect(await typeOf(db, false)).toEqual({ type: "boolean", text: "false" });
    expect(await typeOf(db, 21n)).toEqual({ type: "bigint", text: "21" });
  });

  it("runs the same text many times on one connection with the same answer", async ({ skip }) => {
    if (!db) return skip("PGlite runs in-process");
    for (let i = 0; i < 50; i++) expect(await typeOf(db, i % 2 === 0)).toEqual({ type: "boolean", text: String(i % 2 === 0) });
  });
});
