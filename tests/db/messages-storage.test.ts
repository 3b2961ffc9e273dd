import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { executeRows } from "@/lib/ports/db/bulk";
import { createTestApp, type TestApp } from "../support/app";

/**
 * How the messages table is stored (migration 0015), on both databases: the provider-id index holds
 * only messages that have an id, still unique per channel; the heap leaves room in each page for a
 * message's later versions (provider id, sent, delivered, read).
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

  it("leaves a quarter of each page free for the versions a status update writes", async () => {
    const [table] = await executeRows<{ options: string[] | string | null }>(
      app.db,
      sql`select reloptions as options from pg_class where relname = 'messages'`,
    );
    expect(String(table!.options)).toContain("fillfactor=75");
  });
});
