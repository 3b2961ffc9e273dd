import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray, sql } from "drizzle-orm";
import { events } from "@/lib/db/schema";
import { anyOf, executeRows, insertRowsSql } from "@/lib/ports/db/bulk";
import { newId } from "@/lib/ids";
import { createTestApp, type Seeded, type TestApp } from "../support/app";

/**
 * insertRowsSql: many rows as one jsonb parameter (jsonb_populate_recordset over the table's row
 * type). On both databases the rows must read back exactly as drizzle's own values() writes them:
 * timestamps, booleans, jsonb objects and nulls, enum-like text; on conflict / returning work; rows
 * that set different columns, or a property that is not a column, are refused before any SQL runs.
 */
let app: TestApp;
let seeded: Seeded;
beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed();
});
afterAll(() => app?.close());

function eventRow(i: number, payload: Record<string, unknown> | null = { n: i, nested: { list: [1, "two", null], ok: true } }) {
  return {
    id: newId("event"),
    projectId: seeded.projectId,
    type: "message.status",
    payload: payload as Record<string, unknown>,
    deliver: i % 2 === 0,
    route: "external",
    dedupeKey: i === 1 ? null : `bulk-${i}-${newId("event")}`,
    createdAt: new Date(Date.UTC(2026, 10, 28, 5, 0, i, 123)),
  };
}

describe("insertRowsSql", () => {
  it("writes rows that read back the same as drizzle's values() writes them", async () => {
    const viaJson = [eventRow(1), eventRow(2), eventRow(3, { text: 'quote " backslash \\ unicode ✓' })];
    const viaDrizzle = [eventRow(1), eventRow(2), eventRow(3, { text: 'quote " backslash \\ unicode ✓' })];
    await app.db.execute(insertRowsSql(events, viaJson));
    await app.db.insert(events).values(viaDrizzle);
    const read = async (ids: string[]) =>
      (await app.db.select().from(events).where(inArray(events.id, ids))).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    const a = await read(viaJson.map((r) => r.id));
    const b = await read(viaDrizzle.map((r) => r.id));
    expect(a).toHaveLength(3);
    const strip = (rows: typeof a) => rows.map(({ id: _id, dedupeKey: _key, ...rest }) => rest);
    expect(strip(a)).toEqual(strip(b));
    expect(a[0]!.createdAt.toISOString()).toBe("2026-11-28T05:00:01.123Z");
    expect(a[0]!.dedupeKey).toBeNull();
    expect(a[2]!.payload).toEqual({ text: 'quote " backslash \\ unicode ✓' });
  });

  it("takes an on conflict / returning tail: a duplicate dedupe key stores nothing and returns nothing", async () => {
    const first = eventRow(4);
    await app.db.execute(insertRowsSql(events, [first]));
    const again = { ...eventRow(4), dedupeKey: first.dedupeKey };
    const fresh = eventRow(6);
    const returned = await executeRows<{ id: string }>(app.db, insertRowsSql(events, [again, fresh], sql`on conflict do nothing returning id`));
    expect(returned.map((r) => r.id)).toEqual([fresh.id]);
    expect(await app.db.select().from(events).where(eq(events.id, again.id))).toEqual([]);
  });

  it("refuses rows that set different columns, a property that is not a column, and no rows at all", () => {
    const { dedupeKey: _dropped, ...short } = eventRow(8);
    expect(() => insertRowsSql(events, [eventRow(7), short])).toThrow(/same columns/);
    expect(() => insertRowsSql(events, [{ ...eventRow(9), colour: "red" } as never])).toThrow(/colour is not a column/);
    expect(() => insertRowsSql(events, [])).toThrow(/no rows/);
  });

  it("runs inside a transaction and is undone with it", async () => {
    const row = eventRow(10);
    await expect(
      app.db.transaction(async (tx) => {
        await tx.execute(insertRowsSql(events, [row]));
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await app.db.select().from(events).where(eq(events.id, row.id))).toEqual([]);
  });
});

describe("anyOf", () => {
  it("matches exactly the keys given, whatever characters they hold, as one parameter", async () => {
    const odd = ["comma,inside", 'quote"inside', "brace}{inside", "back\\slash", "plain"];
    const rows = odd.map((key, i) => ({ ...eventRow(20 + i), dedupeKey: `${key}-${seeded.projectId}` }));
    await app.db.execute(insertRowsSql(events, rows));
    const wanted = rows.slice(0, 4).map((r) => r.dedupeKey);
    const found = await app.db
      .select({ key: events.dedupeKey })
      .from(events)
      .where(anyOf(events.dedupeKey, [...wanted, "comma", "inside", "not-there"]));
    expect(found.map((r) => r.key).sort()).toEqual([...wanted].sort());
    expect(await app.db.select().from(events).where(anyOf(events.id, []))).toEqual([]);
    const query = app.db
      .select()
      .from(events)
      .where(anyOf(events.id, ["a", "b", "c"]))
      .toSQL();
    expect(query.params).toHaveLength(1);
  });
});
