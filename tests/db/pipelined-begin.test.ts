import { createServer, connect, type Server, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase } from "@/lib/ports/db/open";
import type { DatabaseHandle } from "@/lib/ports/db/types";
import { createTestApp, type TestApp } from "../support/app";

/**
 * On Postgres a transaction's BEGIN goes out with its first statement (patches/postgres+3.4.9.patch):
 * one round trip fewer per transaction. A proxy between the pool and the server records what the
 * client writes, chunk by chunk, so the test sees whether BEGIN travelled alone; the transaction must
 * still be one (its first statement rolled back with the rest, its snapshot shared).
 */
let app: TestApp;
let proxy: Server | null = null;
let db: DatabaseHandle | null = null;
const written: string[] = [];

beforeAll(async () => {
  app = await createTestApp();
  if (app.kind !== "postgres") return;
  const target = new URL(app.databaseUrl!);
  proxy = createServer((client) => {
    const server = connect(Number(target.port || 5432), target.hostname);
    client.on("data", (chunk) => {
      written.push(chunk.toString("latin1"));
      server.write(chunk);
    });
    server.pipe(client);
    client.on("error", () => server.destroy());
    server.on("error", () => client.destroy());
    client.on("close", () => server.destroy());
  });
  await new Promise<void>((resolve) => proxy!.listen(0, "127.0.0.1", resolve));
  const via = new URL(app.databaseUrl!);
  via.hostname = "127.0.0.1";
  via.port = String((proxy.address() as AddressInfo).port);
  db = await openDatabase({ databaseUrl: via.toString(), migrate: false, max: 3 });
  await db.db.execute(sql`create table if not exists pipelined_begin (n int)`);
  await db.db.execute(sql`select 1`);
});
afterAll(async () => {
  await db?.db.execute(sql`drop table if exists pipelined_begin`);
  await db?.close();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(null)));
  await app?.close();
});

describe("a transaction's BEGIN on Postgres", () => {
  it("goes out in the same write as the transaction's first statement", async ({ skip }) => {
    if (!db) return skip("PGlite runs in-process: there is no wire to save a round trip on");
    written.length = 0;
    await db.db.transaction(async (tx) => {
      await tx.execute(sql`select 'pipelined-first' as marker`);
      await tx.execute(sql`select 'pipelined-second' as marker`);
    });
    const withBegin = written.find((chunk) => chunk.includes("begin"));
    expect(withBegin).toBeDefined();
    expect(withBegin).toContain("pipelined-first");
    expect(withBegin).not.toContain("pipelined-second");
  });

  it("still holds the first statement inside the transaction: it rolls back with the rest", async ({ skip }) => {
    if (!db) return skip("PGlite runs in-process");
    const failed = db.db.transaction(async (tx) => {
      await tx.execute(sql`insert into pipelined_begin (n) values (1)`);
      const [row] = (await tx.execute(sql`select count(*)::int as n from pipelined_begin`)) as unknown as { n: number }[];
      expect(row!.n).toBe(1);
      throw new Error("roll back");
    });
    await expect(failed).rejects.toThrow("roll back");
    const [after] = (await db.db.execute(sql`select count(*)::int as n from pipelined_begin`)) as unknown as { n: number }[];
    expect(after!.n).toBe(0);
  });

  it("keeps every other query out of a transaction: statements beside rolled-back transactions all stay", async ({ skip }) => {
    if (!db) return skip("PGlite runs in-process");
    await db.db.execute(sql`delete from pipelined_begin`);
    const outside = Array.from({ length: 60 }, (_, i) => db!.db.execute(sql`insert into pipelined_begin (n) values (${i})`));
    const rolledBack = Array.from({ length: 60 }, (_, i) =>
      db!.db
        .transaction(async (tx) => {
          await tx.execute(sql`insert into pipelined_begin (n) values (${1000 + i})`);
          throw new Error("roll back");
        })
        .catch(() => "rolled back"),
    );
    await Promise.all([...outside, ...rolledBack]);
    const rows = (await db.db.execute(sql`select n from pipelined_begin order by n`)) as unknown as { n: number }[];
    expect(rows.map((r) => r.n)).toEqual(Array.from({ length: 60 }, (_, i) => i));
  });

  it("runs its statements in one transaction: one transaction id from the first statement to the last", async ({ skip }) => {
    if (!db) return skip("PGlite runs in-process");
    const ids = await db.db.transaction(async (tx) => {
      const first = (await tx.execute(sql`select pg_current_xact_id()::text as id`)) as unknown as { id: string }[];
      const last = (await tx.execute(sql`select pg_current_xact_id()::text as id`)) as unknown as { id: string }[];
      return [first[0]!.id, last[0]!.id];
    });
    expect(ids[0]).toBe(ids[1]);
  });
});
