import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { events, messages, projects, webhookDeliveries } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { applyStatus } from "@/lib/domain/messages/status";
import type { MessageRow } from "@/lib/domain/messages/serialize";
import type { MessageFailure } from "@/lib/ports/provider/types";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys";
import { executeRows } from "@/lib/ports/db/bulk";
import { newId } from "@/lib/ids";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { statementsDuring } from "../support/statements";

/**
 * A provider's status for a message no reaction is concerned with (no broadcast's) is one statement:
 * the guarded move, its message.status, the delivery and its job. Without a transaction the row is
 * locked only while that statement runs, and the event still exists exactly when the move does.
 */
let app: TestApp;
let seeded: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed();
  await app.db.update(projects).set({ webhookUrl: "https://receiver.example/hook" }).where(eq(projects.id, seeded.projectId));
  forgetAuthenticatedKeys();
});
afterAll(() => app?.close());

/** An outbound message the provider accepted (status sent), as the send job leaves it. */
async function sentMessage(): Promise<MessageRow> {
  const [row] = await app.db
    .insert(messages)
    .values({
      id: newId("message"),
      projectId: seeded.projectId,
      conversationId: newId("conversation"),
      contactId: newId("contact"),
      channelId: SANDBOX_CHANNEL_ID,
      direction: "outbound",
      type: "text",
      status: "sent",
      content: "hi",
      body: { kind: "text", text: "hi" },
      platformMessageId: `wamid.ANNOUNCED-${newId("message")}`,
      recipient: "15551110088",
      timestamp: new Date(),
    })
    .returning();
  return row!;
}

async function statusEventsOf(messageId: string) {
  const rows = await app.db.select().from(events).where(eq(events.type, "message.status"));
  return rows.filter((e) => (e.payload as { message_id: string }).message_id === messageId);
}

const delivered = () => ({ status: "delivered" as const, at: app.clock.now(), recipientId: "15551110088" });

describe("a status move no reaction is concerned with", () => {
  it("writes the move, its message.status and the pending delivery in one statement, committed together", async () => {
    const message = await sentMessage();
    const { result, statements } = await statementsDuring(app.db, () => applyStatus(app.systemCtx(), message, delivered()));
    expect(result).toBe(true);
    // Beside it only the queue's coalesced wake-up for the job (an unnamed NOTIFY, lib/ports/queue/wake.ts).
    expect(statements.filter(Boolean)).toEqual(["message_status_move_announced_then_wake"]);
    const [moved] = await app.db.select().from(messages).where(eq(messages.id, message.id));
    expect(moved!.status).toBe("delivered");
    const [event] = await statusEventsOf(message.id);
    expect(event).toMatchObject({ type: "message.status", deliver: true, route: "external", dedupeKey: `status:${message.id}:delivered` });
    expect(event!.payload).toMatchObject({ message_id: message.id, status: "delivered", recipient_id: "15551110088" });
    const deliveries = await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event!.id));
    expect(deliveries).toMatchObject([{ status: "pending", eventType: "message.status" }]);
    // One transaction wrote the three rows: a move kept without its event would never be announced.
    const [xmins] = await executeRows<{ n: number }>(
      app.db,
      sql`select count(distinct x)::int as n from (
        select xmin::text as x from ${messages} where id = ${message.id}
        union all select xmin::text from ${events} where id = ${event!.id}
        union all select xmin::text from ${webhookDeliveries} where event_id = ${event!.id}) t`,
    );
    expect(xmins!.n).toBe(1);
  });

  it("writes no event when the row moved on meanwhile (a later status got there first)", async () => {
    const message = await sentMessage();
    await app.db.update(messages).set({ status: "read" }).where(eq(messages.id, message.id));
    // The caller read the row as sent; the guard in the statement sees read and moves nothing.
    expect(await applyStatus(app.systemCtx(), message, delivered())).toBe(false);
    const [row] = await app.db.select().from(messages).where(eq(messages.id, message.id));
    expect(row!.status).toBe("read");
    expect(await statusEventsOf(message.id)).toHaveLength(0);
  });

  it("a provider's repeat of a status writes no second event", async () => {
    const message = await sentMessage();
    expect(await applyStatus(app.systemCtx(), message, delivered())).toBe(true);
    expect(await applyStatus(app.systemCtx(), message, delivered())).toBe(false);
    expect(await statusEventsOf(message.id)).toHaveLength(1);
  });

  it("keeps a failure with the move, and inside a caller's transaction rolls back with it", async () => {
    const message = await sentMessage();
    const failure: MessageFailure = {
      provider: "provider",
      summary: "Undeliverable",
      code: 131026,
      subcode: null,
      type: null,
      title: "Undeliverable",
      message: "Message undeliverable",
      fbtrace_id: null,
      http_status: null,
      occurred_at: app.clock.now().toISOString(),
    };
    await expect(
      app.db.transaction(async (tx) => {
        expect(await applyStatus({ ...app.systemCtx(), db: tx }, message, { status: "failed", at: app.clock.now(), failure })).toBe(true);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await statusEventsOf(message.id)).toHaveLength(0);
    expect(await applyStatus(app.systemCtx(), message, { status: "failed", at: app.clock.now(), failure })).toBe(true);
    const [row] = await app.db.select().from(messages).where(eq(messages.id, message.id));
    expect(row).toMatchObject({ status: "failed", failure });
    const [event] = await statusEventsOf(message.id);
    expect(event!.payload).toMatchObject({ status: "failed", failure });
  });
});
