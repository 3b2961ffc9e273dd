import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { conversations, messages } from "@/lib/db/schema";
import { upsertContact } from "@/lib/domain/contacts/identity";
import { ensureConversation, insertMessageTouchingConversation } from "@/lib/domain/conversations";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { newId } from "@/lib/ids";
import { createTestApp, type Seeded, type TestApp } from "../support/app";

/**
 * insertMessageTouchingConversation's statement is built once per shape and run on whatever handle is
 * given, transactions included (lib/ports/db/prepared.ts builtOnce). What must hold on both databases:
 * values land as sent (nulls as SQL NULL, not JSON null), the conversation moves forward only, a
 * skipped duplicate touches nothing, and a rolled-back transaction leaves nothing.
 */
let app: TestApp;
let seeded: Seeded;
beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed();
});
afterAll(() => app?.close());

let serial = 0;
async function conversation() {
  serial += 1;
  const now = app.clock.now();
  const contact = await upsertContact(app.db, { projectId: seeded.projectId, organizationId: seeded.orgId, channelId: SANDBOX_CHANNEL_ID, platform: "PLATFORM_A", phone: `+1415880${String(serial).padStart(4, "0")}`, now });
  return ensureConversation(app.db, seeded.projectId, contact.id, SANDBOX_CHANNEL_ID, now);
}

function values(conv: { id: string; contactId: string }, at: Date, extra: Partial<typeof messages.$inferInsert> = {}): typeof messages.$inferInsert {
  return {
    id: newId("message", at.getTime()),
    projectId: seeded.projectId,
    conversationId: conv.id,
    contactId: conv.contactId,
    channelId: SANDBOX_CHANNEL_ID,
    direction: "inbound",
    type: "text",
    status: "delivered",
    content: "Hello",
    body: { text: "Hello" },
    timestamp: at,
    createdAt: at,
    updatedAt: at,
    ...extra,
  };
}

async function lastMessageAt(id: string) {
  const [row] = await app.db.select({ at: conversations.lastMessageAt }).from(conversations).where(eq(conversations.id, id));
  return row!.at;
}

describe("insertMessageTouchingConversation", () => {
  it("stores the values as given and moves last_message_at forward, never back", async () => {
    const conv = await conversation();
    const later = new Date("2026-05-01T10:00:02.000Z");
    const earlier = new Date("2026-05-01T10:00:01.000Z");
    const first = values(conv, later, { platformMessageId: "wamid.first", providerTimestamp: later, replyTo: null });
    expect(await insertMessageTouchingConversation(app.db, first, later)).toBe(true);
    expect((await lastMessageAt(conv.id))?.toISOString()).toBe(later.toISOString());
    // Same shape again, an older message: stored, but the conversation keeps the later time.
    const second = values(conv, earlier, { platformMessageId: "wamid.second", providerTimestamp: earlier, replyTo: null });
    expect(await insertMessageTouchingConversation(app.db, second, earlier)).toBe(true);
    expect((await lastMessageAt(conv.id))?.toISOString()).toBe(later.toISOString());

    const [row] = await app.db.select().from(messages).where(eq(messages.id, first.id));
    expect(row!.body).toEqual({ text: "Hello" });
    expect(row!.providerTimestamp?.toISOString()).toBe(later.toISOString());
    expect(row!.platformMessageId).toBe("wamid.first");
    expect(row!.replyTo).toBeNull();
  });

  it("a null stays SQL NULL, also in a jsonb column, and the same columns set or null are different statements", async () => {
    const conv = await conversation();
    const at = app.clock.now();
    const failure = { provider: "provider" as const, summary: "Refused", code: 131026, subcode: null, type: null, title: null, message: "Undeliverable", fbtrace_id: null, http_status: 400, occurred_at: at.toISOString() };
    const withFailure = values(conv, at, { failure });
    const withoutFailure = values(conv, at, { failure: null });
    await insertMessageTouchingConversation(app.db, withFailure, at);
    await insertMessageTouchingConversation(app.db, withoutFailure, at);
    const rows = (await app.db.execute(sql`select id, failure is null as is_sql_null from messages where id in (${withFailure.id}, ${withoutFailure.id})`)) as unknown;
    const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as { id: string; is_sql_null: boolean }[];
    expect(Object.fromEntries(list.map((r) => [r.id, r.is_sql_null]))).toEqual({ [withFailure.id]: false, [withoutFailure.id]: true });
  });

  it("skipDuplicate: a second copy of a provider message is not stored and does not touch the conversation", async () => {
    const conv = await conversation();
    const at = new Date("2026-05-02T09:00:00.000Z");
    const copyAt = new Date("2026-05-02T09:30:00.000Z");
    expect(await insertMessageTouchingConversation(app.db, values(conv, at, { platformMessageId: "wamid.dup" }), at, { skipDuplicate: true })).toBe(true);
    expect(await insertMessageTouchingConversation(app.db, values(conv, copyAt, { platformMessageId: "wamid.dup" }), copyAt, { skipDuplicate: true })).toBe(false);
    expect((await lastMessageAt(conv.id))?.toISOString()).toBe(at.toISOString());
    const copies = await app.db.select({ id: messages.id }).from(messages).where(eq(messages.platformMessageId, "wamid.dup"));
    expect(copies).toHaveLength(1);
  });

  it("runs inside the caller's transaction: a rollback leaves neither the message nor the touch", async () => {
    const conv = await conversation();
    const at = new Date("2026-05-03T08:00:00.000Z");
    const message = values(conv, at);
    await expect(
      app.db.transaction(async (tx) => {
        await insertMessageTouchingConversation(tx, message, at);
        // Seen inside the transaction...
        expect(await tx.select({ id: messages.id }).from(messages).where(eq(messages.id, message.id))).toHaveLength(1);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    // ...and gone after it.
    expect(await app.db.select({ id: messages.id }).from(messages).where(eq(messages.id, message.id))).toHaveLength(0);
    expect(await lastMessageAt(conv.id)).toBeNull();
  });
});
