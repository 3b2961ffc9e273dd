import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { executeRows } from "@/lib/ports/db/bulk";
import { events, messages, projects, webhookDeliveries } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import type { ProjectRow } from "@/lib/domain/context";
import type { InboundMessageInsert } from "@/lib/domain/conversations";
import { upsertContactAndConversation } from "@/lib/domain/ingest/contact-conversation";
import { insertInboundMessageAnnounced, insertInboundMessageRecorded } from "@/lib/domain/ingest/message-announced";
import { newId } from "@/lib/ids";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { statementsDuring } from "../support/statements";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys";

/**
 * A customer's message and its message.received (event, delivery and the delivery's job) are one
 * statement in the ingest's transaction: the event is written exactly when the message is, so a
 * provider's repeat writes neither, and a rolled-back transaction leaves neither.
 */
let app: TestApp;
let seeded: Seeded;
let project: ProjectRow;

beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed();
  const [updated] = await app.db.update(projects).set({ webhookUrl: "https://receiver.example/hook" }).where(eq(projects.id, seeded.projectId)).returning();
  forgetAuthenticatedKeys();
  project = updated!;
});
afterAll(() => app?.close());

let serial = 0;
async function messageFor(providerId: string): Promise<InboundMessageInsert> {
  serial += 1;
  const at = new Date(`2026-11-30T10:00:${String(serial).padStart(2, "0")}.000Z`);
  const { contact, conversation } = await upsertContactAndConversation(app.db, {
    projectId: seeded.projectId,
    organizationId: seeded.orgId,
    channelId: SANDBOX_CHANNEL_ID,
    platform: "PLATFORM_A",
    phone: `+1555888${String(serial).padStart(4, "0")}`,
    now: at,
  });
  return {
    id: newId("message", at.getTime()),
    projectId: seeded.projectId,
    conversationId: conversation.id,
    contactId: contact.id,
    channelId: SANDBOX_CHANNEL_ID,
    direction: "inbound",
    type: "text",
    status: "delivered",
    content: "hello",
    body: { text: "hello" },
    timestamp: at,
    createdAt: at,
    updatedAt: at,
    platformMessageId: providerId,
    providerTimestamp: at,
  };
}

const received = (row: InboundMessageInsert) => ({
  project,
  type: "message.received" as const,
  payload: { message_id: row.id, text: row.content },
  at: row.createdAt,
  dedupeKey: `received:${SANDBOX_CHANNEL_ID}:${row.platformMessageId}`,
});

async function eventsOf(messageId: string) {
  const rows = await app.db.select().from(events).where(eq(events.projectId, seeded.projectId));
  return rows.filter((e) => (e.payload as { message_id?: string }).message_id === messageId);
}

describe("insertInboundMessageAnnounced", () => {
  it("writes the message, its message.received and the pending delivery in one statement", async () => {
    const row = await messageFor("wamid.announced.1");
    const { result, statements } = await statementsDuring(app.db, () =>
      app.db.transaction((tx) => insertInboundMessageAnnounced({ ...app.systemCtx(), db: tx }, row, null, received(row))),
    );
    expect(statements).toEqual(["message_insert_inbound_announced"]);
    expect(result.stored).toBe(true);
    expect(result.eventId).toMatch(/^evt_/);
    const [message] = await app.db.select().from(messages).where(eq(messages.id, row.id));
    expect(message).toMatchObject({ platformMessageId: "wamid.announced.1", content: "hello" });
    const [event] = await eventsOf(row.id);
    expect(event).toMatchObject({ id: result.eventId, type: "message.received", deliver: true, route: "external" });
    const deliveries = await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, result.eventId!));
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ status: "pending", eventType: "message.received" });
  });

  it("writes neither the message nor an event for a provider's repeat", async () => {
    const row = await messageFor("wamid.announced.2");
    const first = await app.db.transaction((tx) => insertInboundMessageAnnounced({ ...app.systemCtx(), db: tx }, row, null, received(row)));
    expect(first.stored).toBe(true);
    const repeat = { ...row, id: newId("message") };
    const again = await app.db.transaction((tx) => insertInboundMessageAnnounced({ ...app.systemCtx(), db: tx }, repeat, null, received(repeat)));
    expect(again).toEqual({ stored: false, eventId: null });
    expect(await app.db.select().from(messages).where(eq(messages.id, repeat.id))).toHaveLength(0);
    expect(await eventsOf(repeat.id)).toHaveLength(0);
    expect(await eventsOf(row.id)).toHaveLength(1);
  });

  it("leaves nothing when the caller's transaction rolls back", async () => {
    const row = await messageFor("wamid.announced.3");
    await expect(
      app.db.transaction(async (tx) => {
        const result = await insertInboundMessageAnnounced({ ...app.systemCtx(), db: tx }, row, null, received(row));
        expect(result.stored).toBe(true);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await app.db.select().from(messages).where(eq(messages.id, row.id))).toHaveLength(0);
    expect(await eventsOf(row.id)).toHaveLength(0);
  });
});

describe("insertInboundMessageRecorded", () => {
  const notDelivered = (row: InboundMessageInsert) => ({ ...received(row), route: "flows" as const, deliver: false });

  it("writes the message and its message.received for another route in one statement, with no delivery", async () => {
    const row = await messageFor("wamid.recorded.1");
    const { result, statements } = await statementsDuring(app.db, () =>
      app.db.transaction((tx) => insertInboundMessageRecorded({ ...app.systemCtx(), db: tx }, row, null, notDelivered(row))),
    );
    expect(statements).toEqual(["message_insert_inbound_recorded"]);
    expect(result.stored).toBe(true);
    expect(result.eventId).toMatch(/^evt_/);
    const [event] = await eventsOf(row.id);
    expect(event).toMatchObject({
      id: result.eventId,
      type: "message.received",
      deliver: false,
      route: "flows",
      dedupeKey: `received:${SANDBOX_CHANNEL_ID}:wamid.recorded.1`,
    });
    expect(event!.payload).toEqual({ message_id: row.id, text: "hello" });
    expect(await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, result.eventId!))).toHaveLength(0);
  });

  it("keeps a held event's deliver flag (its files release it later), and writes nothing for a provider's repeat", async () => {
    const row = await messageFor("wamid.recorded.2");
    const held = await app.db.transaction((tx) => insertInboundMessageRecorded({ ...app.systemCtx(), db: tx }, row, null, { ...received(row), defer: true }));
    expect(held.stored).toBe(true);
    const [event] = await eventsOf(row.id);
    expect(event).toMatchObject({ id: held.eventId, deliver: true, route: "external" });
    expect(await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, held.eventId!))).toHaveLength(0);

    const repeat = { ...row, id: newId("message") };
    const again = await app.db.transaction((tx) => insertInboundMessageRecorded({ ...app.systemCtx(), db: tx }, repeat, null, notDelivered(repeat)));
    expect(again).toEqual({ stored: false, eventId: null });
    expect(await app.db.select().from(messages).where(eq(messages.id, repeat.id))).toHaveLength(0);
    expect(await eventsOf(repeat.id)).toHaveLength(0);
  });

  it("stores the message but no second event when its dedupe key exists already", async () => {
    const row = await messageFor("wamid.recorded.3");
    const first = await app.db.transaction((tx) => insertInboundMessageRecorded({ ...app.systemCtx(), db: tx }, row, null, notDelivered(row)));
    expect(first.eventId).toMatch(/^evt_/);
    const other = await messageFor("wamid.recorded.4");
    const sameKey = { ...notDelivered(other), dedupeKey: `received:${SANDBOX_CHANNEL_ID}:wamid.recorded.3` };
    const second = await app.db.transaction((tx) => insertInboundMessageRecorded({ ...app.systemCtx(), db: tx }, other, null, sameKey));
    expect(second).toEqual({ stored: true, eventId: null });
    expect(await eventsOf(other.id)).toHaveLength(0);
  });

  it("writes a feature's job (an automation's evaluation) in the same statement, and none for a provider's repeat", async () => {
    const row = await messageFor("wamid.recorded.5");
    const job = { name: "automations.evaluate" as const, data: { messageId: row.id } };
    const { result, statements } = await statementsDuring(app.db, () =>
      app.db.transaction((tx) => insertInboundMessageRecorded({ ...app.systemCtx(), db: tx }, row, null, notDelivered(row), job)),
    );
    expect(statements).toEqual(["message_insert_inbound_recorded_job"]);
    expect(result.stored).toBe(true);
    expect(await evaluationJobsOf(row.id)).toEqual([{ name: "automations.evaluate", data: { messageId: row.id } }]);

    const repeat = { ...row, id: newId("message") };
    const again = await app.db.transaction((tx) =>
      insertInboundMessageRecorded({ ...app.systemCtx(), db: tx }, repeat, null, notDelivered(repeat), { ...job, data: { messageId: repeat.id } }),
    );
    expect(again).toEqual({ stored: false, eventId: null });
    expect(await evaluationJobsOf(repeat.id)).toEqual([]);
  });
});

async function evaluationJobsOf(messageId: string) {
  return executeRows<{ name: string; data: unknown }>(
    app.db,
    sql`select name, data from pgboss.job where name = 'automations.evaluate' and data->>'messageId' = ${messageId}`,
  );
}
