import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { executeRows } from "@/lib/ports/db/bulk";
import { createTestApp, type TestApp } from "../support/app";

/**
 * How the messages table is stored (migrations 0015 and 0026), on both databases: the provider-id
 * index holds only messages that have an id, still unique per channel; the idempotency index holds
 * only sends (every send has a key, no customer message has one); the heap leaves room in each page
 * for a message's later versions (provider id, sent, delivered, read).
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

describe("the messages table", () => {
  it("indexes provider ids only where there is one, unique per channel", async () => {
    const [index] = await executeRows<{ def: string }>(app.db, sql`select indexdef as def from pg_indexes where indexname = 'messages_channel_platform_id'`);
    expect(index!.def).toMatch(/UNIQUE INDEX .* \(channel_id, platform_message_id\) WHERE \(platform_message_id IS NOT NULL\)/);
  });

  it("indexes idempotency keys only where there is one: a customer's message (no key) adds no entry", async () => {
    const [index] = await executeRows<{ def: string }>(app.db, sql`select indexdef as def from pg_indexes where indexname = 'messages_project_idempotency'`);
    expect(index!.def).toMatch(/INDEX .* \(project_id, idempotency_key\) WHERE \(idempotency_key IS NOT NULL\)/);
  });

  it("finds an earlier send by its key through that index (the key's equality implies it is not null)", async () => {
    const plan = await app.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return executeRows<{ "QUERY PLAN": string }>(
        tx,
        sql`explain select id from messages where project_id = ${"proj_x"} and idempotency_key = ${"key_x"} limit 1`,
      );
    });
    expect(plan.map((row) => row["QUERY PLAN"]).join("\n")).toContain("messages_project_idempotency");
  });

  it("leaves a quarter of each page free for the versions a status update writes", async () => {
    const [table] = await executeRows<{ options: string[] | string | null }>(
      app.db,
      sql`select reloptions as options from pg_class where relname = 'messages'`,
    );
    expect(String(table!.options)).toContain("fillfactor=75");
  });
});
