import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray, sql } from "drizzle-orm";
import { events, messages, projects, webhookDeliveries } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { applyStatus, applyStatuses, STATUS_TARGET_COLUMNS, type StatusMove } from "@/lib/domain/messages/status";
import type { DirectDeliveryBatch } from "@/lib/domain/context";
import type { AttemptScope } from "@/lib/domain/webhooks/attempt";
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

/** The webhook.deliver jobs written for these deliveries. */
async function jobsFor(deliveryIds: string[]): Promise<string[]> {
  const rows = await executeRows<{ delivery: string }>(
    app.db,
    sql`select data->>'deliveryId' as delivery from pgboss.job where name = 'webhook.deliver' and data->>'deliveryId' = any(string_to_array(${deliveryIds.join(",")}, ','))`,
  );
  return rows.map((row) => row.delivery).sort();
}

/** Each message as a status run reads it (status-set.ts), and the moves given for it in order. */
async function runOf(pairs: [MessageRow, "sent" | "delivered" | "read"][]): Promise<StatusMove[]> {
  const ids = [...new Set(pairs.map(([m]) => m.id))];
  const read = new Map((await app.db.select(STATUS_TARGET_COLUMNS).from(messages).where(inArray(messages.id, ids))).map((row) => [row.id, row]));
  return pairs.map(([m, status]) => ({ message: read.get(m.id)!, update: { status, at: app.clock.now(), recipientId: "15551110088" } }));
}

/** A direct batch that leases every delivery and keeps what it is told (webhooks/direct.ts's contract). */
function leasingBatch() {
  const settled: { projectId: string; deliveryId: string | null; scope?: AttemptScope }[] = [];
  const batch: DirectDeliveryBatch = {
    reserve: (_projectId, now) => new Date(now.getTime() + 30_000),
    settle: (projectId, deliveryId, scope) => void settled.push({ projectId, deliveryId, ...(scope ? { scope } : {}) }),
  };
  return { batch, settled };
}

describe("a run of status moves no reaction is concerned with", () => {
  it("is one statement: each moved message's events in order, their pending deliveries and jobs; a message moved on meanwhile gets none", async () => {
    const [twice, once, stale] = [await sentMessage(), await sentMessage(), await sentMessage()];
    const run = await runOf([
      [twice, "delivered"],
      [once, "read"],
      [stale, "delivered"],
      [twice, "read"],
    ]);
    await app.db.update(messages).set({ status: "read" }).where(eq(messages.id, stale.id));
    const { result, statements } = await statementsDuring(app.db, () => applyStatuses(app.systemCtx(), run));
    expect(statements.filter(Boolean)).toEqual(["message_status_moves_announced_then_wake"]);
    expect(result).toBe(3);
    const statuses = Object.fromEntries(
      (
        await app.db
          .select({ id: messages.id, status: messages.status })
          .from(messages)
          .where(inArray(messages.id, [twice.id, once.id, stale.id]))
      ).map((r) => [r.id, r.status]),
    );
    expect(statuses).toEqual({ [twice.id]: "read", [once.id]: "read", [stale.id]: "read" });
    const twiceEvents = (await statusEventsOf(twice.id)).sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(twiceEvents.map((e) => (e.payload as { status: string }).status)).toEqual(["delivered", "read"]);
    expect(await statusEventsOf(once.id)).toHaveLength(1);
    expect(await statusEventsOf(stale.id)).toHaveLength(0);
    const eventIds = [...twiceEvents, ...(await statusEventsOf(once.id))].map((e) => e.id);
    const deliveries = await app.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.eventId, eventIds));
    expect(deliveries.map((d) => [d.status, d.leaseExpiresAt])).toEqual([
      ["pending", null],
      ["pending", null],
      ["pending", null],
    ]);
    expect(await jobsFor(deliveries.map((d) => d.id))).toEqual(deliveries.map((d) => d.id).sort());
  });

  it("a run again writes nothing (the guard, then the events' dedupe keys), and a leased delivery gets no job but its scope", async () => {
    const message = await sentMessage();
    const { batch, settled } = leasingBatch();
    const ctx = { ...app.systemCtx(), direct: batch };
    expect(await applyStatuses(ctx, await runOf([[message, "delivered"]]))).toBe(1);
    const [event] = await statusEventsOf(message.id);
    const [delivery] = await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event!.id));
    expect(delivery!.leaseExpiresAt).toBeInstanceOf(Date);
    expect(await jobsFor([delivery!.id])).toEqual([]);
    expect(settled).toEqual([
      {
        projectId: seeded.projectId,
        deliveryId: delivery!.id,
        scope: expect.objectContaining({
          delivery: { id: delivery!.id, status: "pending", attemptCount: 0 },
          event: expect.objectContaining({ id: event!.id, type: "message.status" }),
          project: expect.objectContaining({ id: seeded.projectId, webhookUrl: "https://receiver.example/hook" }),
        }),
      },
    ]);
    // The same run read before the first was applied: the guard refuses it, and no slot stays reserved.
    const stale = await runOf([[message, "delivered"]]);
    stale[0]!.message = { ...stale[0]!.message, status: "sent" };
    expect(await applyStatuses(ctx, stale)).toBe(0);
    expect(settled.at(-1)).toEqual({ projectId: seeded.projectId, deliveryId: null });
    expect(await statusEventsOf(message.id)).toHaveLength(1);
  });

  it("for a paused endpoint writes paused deliveries with no job, and hands back the slots", async () => {
    await app.db.update(projects).set({ webhookPausedAt: new Date() }).where(eq(projects.id, seeded.projectId));
    try {
      const message = await sentMessage();
      const { batch, settled } = leasingBatch();
      expect(await applyStatuses({ ...app.systemCtx(), direct: batch }, await runOf([[message, "delivered"]]))).toBe(1);
      const [event] = await statusEventsOf(message.id);
      const [delivery] = await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event!.id));
      expect(delivery).toMatchObject({ status: "paused", leaseExpiresAt: null, nextAttemptAt: null });
      expect(await jobsFor([delivery!.id])).toEqual([]);
      expect(settled).toEqual([{ projectId: seeded.projectId, deliveryId: null }]);
    } finally {
      await app.db.update(projects).set({ webhookPausedAt: null }).where(eq(projects.id, seeded.projectId));
    }
  });
});
