import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { conversations, messages } from "@/lib/db/schema";
import { upsertContact } from "@/lib/domain/contacts/identity";
import {
  ensureConversation,
  insertInboundMessage,
  insertOutboundMessageTouchingConversation,
  type InboundMessageInsert,
  type OutboundMessageInsert,
} from "@/lib/domain/conversations";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { newId } from "@/lib/ids";
import { createTestApp, type Seeded, type TestApp } from "../support/app";

/**
 * The message inserts are named statements, inbound (duplicates skipped; its conversation moves with the
 * conversation's own upsert, tests/ingest/contact-conversation.test.ts) and outbound (touching its
 * conversation), each built once and run on whatever handle is given, transactions included
 * (lib/ports/db/prepared.ts builtOnce). What must hold on both databases: values land as sent (nulls as
 * SQL NULL, not JSON null), the conversation moves forward only, a skipped duplicate is reported, a
 * column the statement does not set is refused, and a rolled-back transaction leaves nothing.
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
  const contact = await upsertContact(app.db, {
    projectId: seeded.projectId,
    organizationId: seeded.orgId,
    channelId: SANDBOX_CHANNEL_ID,
    platform: "PLATFORM_A",
    phone: `+1415880${String(serial).padStart(4, "0")}`,
    now,
  });
  return ensureConversation(app.db, seeded.projectId, contact.id, SANDBOX_CHANNEL_ID, now);
}

function values(conv: { id: string; contactId: string }, at: Date, extra: Partial<InboundMessageInsert> = {}): InboundMessageInsert {
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

async function sqlNulls(column: "media" | "reply_to" | "provider_timestamp", ids: string[]) {
  const rows = (await app.db.execute(sql`select id, ${sql.raw(column)} is null as is_sql_null from messages where id in ${ids}`)) as unknown;
  const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as { id: string; is_sql_null: boolean }[];
  return Object.fromEntries(list.map((r) => [r.id, r.is_sql_null]));
}

describe("insertInboundMessage", () => {
  it("stores the values as given, and leaves the conversation to its own upsert", async () => {
    const conv = await conversation();
    const later = new Date("2026-05-01T10:00:02.000Z");
    const earlier = new Date("2026-05-01T10:00:01.000Z");
    const first = values(conv, later, { platformMessageId: "wamid.first", providerTimestamp: later, replyTo: null });
    expect(await insertInboundMessage(app.db, first)).toBe(true);
    const second = values(conv, earlier, { platformMessageId: "wamid.second", providerTimestamp: earlier, replyTo: "wamid.first" });
    expect(await insertInboundMessage(app.db, second)).toBe(true);
    expect(await lastMessageAt(conv.id)).toBeNull();

    const [row] = await app.db.select().from(messages).where(eq(messages.id, first.id));
    expect(row!.body).toEqual({ text: "Hello" });
    expect(row!.providerTimestamp?.toISOString()).toBe(later.toISOString());
    expect(row!.platformMessageId).toBe("wamid.first");
    expect(row!.replyTo).toBeNull();
    const [other] = await app.db.select().from(messages).where(eq(messages.id, second.id));
    expect(other!.replyTo).toBe("wamid.first");
  });

  it("one statement for set and null values: a null stays SQL NULL, also in a jsonb column, and an unset column is NULL", async () => {
    const conv = await conversation();
    const at = app.clock.now();
    const media = { id: "media_1", mime_type: "image/jpeg" };
    const withMedia = values(conv, at, { platformMessageId: "wamid.media", media, providerTimestamp: at });
    const withoutMedia = values(conv, at, { platformMessageId: "wamid.nomedia", media: null, providerTimestamp: null });
    const unset = values(conv, at, { platformMessageId: "wamid.unset" });
    for (const row of [withMedia, withoutMedia, unset]) expect(await insertInboundMessage(app.db, row)).toBe(true);
    const ids = [withMedia.id, withoutMedia.id, unset.id];
    expect(await sqlNulls("media", ids)).toEqual({ [withMedia.id]: false, [withoutMedia.id]: true, [unset.id]: true });
    expect(await sqlNulls("provider_timestamp", ids)).toEqual({ [withMedia.id]: false, [withoutMedia.id]: true, [unset.id]: true });
    const [row] = await app.db.select({ media: messages.media }).from(messages).where(eq(messages.id, withMedia.id));
    expect(row!.media).toEqual(media);
  });

  it("a second copy of a provider message is not stored, and says so", async () => {
    const conv = await conversation();
    const at = new Date("2026-05-02T09:00:00.000Z");
    const copyAt = new Date("2026-05-02T09:30:00.000Z");
    expect(await insertInboundMessage(app.db, values(conv, at, { platformMessageId: "wamid.dup" }))).toBe(true);
    expect(await insertInboundMessage(app.db, values(conv, copyAt, { platformMessageId: "wamid.dup" }))).toBe(false);
    const copies = await app.db.select({ id: messages.id }).from(messages).where(eq(messages.platformMessageId, "wamid.dup"));
    expect(copies).toHaveLength(1);
  });

  it("refuses a row that sets a column the statement does not (it would be dropped silently)", async () => {
    const conv = await conversation();
    const at = app.clock.now();
    const row = { ...values(conv, at), recipient: "+14155550100" };
    await expect(insertInboundMessage(app.db, row)).rejects.toThrow("messages.recipient");
    expect(await app.db.select({ id: messages.id }).from(messages).where(eq(messages.id, row.id))).toHaveLength(0);
  });

  it("runs inside the caller's transaction: a rollback leaves no message", async () => {
    const conv = await conversation();
    const at = new Date("2026-05-03T08:00:00.000Z");
    const message = values(conv, at);
    await expect(
      app.db.transaction(async (tx) => {
        await insertInboundMessage(tx, message);
        // Seen inside the transaction...
        expect(await tx.select({ id: messages.id }).from(messages).where(eq(messages.id, message.id))).toHaveLength(1);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    // ...and gone after it.
    expect(await app.db.select({ id: messages.id }).from(messages).where(eq(messages.id, message.id))).toHaveLength(0);
  });
});

describe("insertOutboundMessageTouchingConversation", () => {
  function outbound(conv: { id: string; contactId: string }, at: Date, extra: Partial<OutboundMessageInsert> = {}): OutboundMessageInsert {
    const { platformMessageId: _id, media: _media, providerTimestamp: _at, ...common } = values(conv, at);
    return { ...common, direction: "outbound", status: "queued", recipient: "+14155550100", idempotencyKey: `key-${common.id}`, ...extra };
  }

  it("stores a send's row (recipient, reply target, idempotency key) and moves last_message_at forward", async () => {
    const conv = await conversation();
    const at = new Date("2026-05-04T08:00:00.000Z");
    const quoted = outbound(conv, at, { replyTo: "wamid.quoted" });
    const plain = outbound(conv, new Date("2026-05-04T07:00:00.000Z"), { replyTo: null, content: null });
    await insertOutboundMessageTouchingConversation(app.db, quoted, at);
    await insertOutboundMessageTouchingConversation(app.db, plain, plain.timestamp);
    expect((await lastMessageAt(conv.id))?.toISOString()).toBe(at.toISOString());
    const [row] = await app.db.select().from(messages).where(eq(messages.id, quoted.id));
    expect(row).toMatchObject({
      direction: "outbound",
      status: "queued",
      recipient: "+14155550100",
      replyTo: "wamid.quoted",
      idempotencyKey: quoted.idempotencyKey,
      platformMessageId: null,
      media: null,
    });
    expect(await sqlNulls("reply_to", [quoted.id, plain.id])).toEqual({ [quoted.id]: false, [plain.id]: true });
  });

  it("does not skip a duplicate: the same id again is an error, not a silent no-op", async () => {
    const conv = await conversation();
    const at = app.clock.now();
    const row = outbound(conv, at);
    await insertOutboundMessageTouchingConversation(app.db, row, at);
    await expect(insertOutboundMessageTouchingConversation(app.db, row, at)).rejects.toThrow();
  });
});
