import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { broadcastRecipients, broadcasts, channels, messages, templates } from "@/lib/db/schema";
import { claimBatch, releaseBatch } from "@/lib/domain/broadcasts/claim";
import { BROADCAST_RELEASE_JOB, RELEASE_AFTER_MS } from "@/lib/domain/broadcasts/leftovers";
import { projectCtx } from "@/lib/domain/automations/runs";
import { systemCtx } from "@/lib/domain/context";
import { servicesOf } from "@/lib/server/runtime";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { rowsOf } from "../contacts/erase-support";
import { createBroadcast, optedIn, readyChannel, recipientsOf, write } from "./support";

/**
 * The sender claims its next batch while the current one sends. A run that stops (paused, cancelled)
 * gives that batch back: its messages, never handed to the provider, are deleted and its recipients
 * are pending again (or skipped, cancelled). A cancel in the middle of a real run leaves no message
 * behind that is queued without the provider's id, and no recipient queued for ever.
 */
let h: Harness;
let seeded: Seeded;
let ready: Awaited<ReturnType<typeof readyChannel>>;
let phoneNumberId: string;

beforeAll(async () => {
  h = await startHarness({ statusDelaysMs: { sent: 600_000, delivered: 600_000, read: 600_000 } });
  seeded = await h.app.seed();
  ready = await readyChannel(h, seeded.key);
  phoneNumberId = ready.phoneNumberId;
});
afterAll(() => h.close());

async function claimOf(broadcastId: string) {
  const [broadcast] = await h.app.db.select().from(broadcasts).where(eq(broadcasts.id, broadcastId));
  const [channel] = await h.app.db.select().from(channels).where(eq(channels.id, ready.channel.id));
  const [template] = await h.app.db.select().from(templates).where(eq(templates.id, ready.template.id));
  const ctx = (await projectCtx(systemCtx(servicesOf(h.app.runtime)), seeded.projectId))!;
  return { ctx, claim: { broadcast: broadcast!, channel: channel!, template: template! } };
}

async function draftTo(count: number, name: string) {
  const numbers = await optedIn(h, seeded.key, count, ready.channel.id);
  const created = await createBroadcast(h, seeded.key, {
    name,
    channel_id: ready.channel.id,
    template: { id: ready.template.id },
    recipients: numbers.map((to) => ({ to, parameters: { "1": "x" } })),
  });
  return created.id;
}

describe("claiming batches", () => {
  it("takes pending recipients in id order from the cursor the previous claim returned", async () => {
    const id = await draftTo(5, "In turn");
    await h.app.db.update(broadcasts).set({ status: "SENDING" }).where(eq(broadcasts.id, id));
    const { ctx, claim } = await claimOf(id);
    const ids = (await recipientsOf(h, id)).map((r) => r.id).sort();
    const first = await claimBatch(ctx, claim, 2);
    expect(first.outgoing.map((o) => o.recipientId)).toEqual(ids.slice(0, 2));
    expect(first.cursor).toBe(ids[1]);
    const second = await claimBatch(ctx, claim, 2, { after: first.cursor, retries: false });
    expect(second.outgoing.map((o) => o.recipientId)).toEqual(ids.slice(2, 4));
    // From a cursor past a recipient still pending, that one is not taken: the cursor is trusted.
    await h.app.db.update(broadcastRecipients).set({ status: "pending", messageId: null }).where(eq(broadcastRecipients.id, ids[0]!));
    const third = await claimBatch(ctx, claim, 2, { after: second.cursor, retries: false });
    expect(third.outgoing.map((o) => o.recipientId)).toEqual([ids[4]]);
    expect(third.cursor).toBe(ids[4]);
    // Without a cursor (a new slice) it is found again.
    expect((await claimBatch(ctx, claim, 2, { retries: false })).outgoing.map((o) => o.recipientId)).toEqual([ids[0]]);
  });
});

describe("a claimed batch the sender does not send", () => {
  it("goes back to pending (its messages deleted), except a message the provider already has", async () => {
    const id = await draftTo(4, "Given back");
    await h.app.db.update(broadcasts).set({ status: "SENDING" }).where(eq(broadcasts.id, id));
    const { ctx, claim } = await claimOf(id);
    const { outgoing: batch } = await claimBatch(ctx, claim, 4);
    expect(batch).toHaveLength(4);
    // One of them reached the provider before the run stopped.
    await h.app.db.update(messages).set({ platformMessageId: "wamid.reached" }).where(eq(messages.id, batch[0]!.messageId));
    // The sender holds `batch` in hand: a second claim does not take it again.
    expect((await claimBatch(ctx, claim, 4, { sending: batch })).outgoing).toEqual([]);

    await releaseBatch(ctx, id, batch);
    const rows = await recipientsOf(h, id);
    expect(rows.filter((r) => r.status === "pending")).toHaveLength(3);
    expect(rows.filter((r) => r.status === "pending").every((r) => r.messageId === null)).toBe(true);
    expect(rows.find((r) => r.id === batch[0]!.recipientId)).toMatchObject({ status: "queued", messageId: batch[0]!.messageId });
    const left = await h.app.db.select({ id: messages.id }).from(messages).where(eq(messages.broadcastId, id));
    expect(left.map((m) => m.id)).toEqual([batch[0]!.messageId]);
    // Claimed again later, they get new messages.
    const { outgoing: again } = await claimBatch(ctx, claim, 4);
    expect(again.map((o) => o.recipientId).sort()).toEqual(
      batch
        .slice(1)
        .map((o) => o.recipientId)
        .sort(),
    );
  });

  it("is skipped (cancelled) when the broadcast was cancelled meanwhile", async () => {
    const id = await draftTo(3, "Cancelled in hand");
    await h.app.db.update(broadcasts).set({ status: "SENDING" }).where(eq(broadcasts.id, id));
    const { ctx, claim } = await claimOf(id);
    const { outgoing: batch } = await claimBatch(ctx, claim, 3);
    expect((await write(h, seeded.key, `/broadcasts/${id}/cancel`)).body.status).toBe("CANCELLED");
    await releaseBatch(ctx, id, batch);
    const rows = await recipientsOf(h, id);
    expect(rows.map((r) => [r.status, r.skipReason, r.messageId])).toEqual(rows.map(() => ["skipped", "cancelled", null]));
    expect(await h.app.db.select().from(messages).where(eq(messages.broadcastId, id))).toEqual([]);
    const got = await h.app.call("GET", `/broadcasts/${id}`, { key: seeded.key });
    expect(got.body.stats).toMatchObject({ total: 3, skipped: 3, queued: 0, pending: 0 });
  });

  it("what a cancelled run left queued in no slice's hands is released by the job the cancel queued, three minutes later", async () => {
    const id = await draftTo(4, "Left behind");
    await h.app.db.update(broadcasts).set({ status: "SENDING", startedAt: new Date() }).where(eq(broadcasts.id, id));
    const { ctx, claim } = await claimOf(id);
    // A slice claimed these and died (or they wait for a retry after a refusal); one reached the provider.
    const { outgoing: batch } = await claimBatch(ctx, claim, 4);
    await h.app.db.update(messages).set({ platformMessageId: "wamid.reached-before-cancel" }).where(eq(messages.id, batch[0]!.messageId));
    expect((await write(h, seeded.key, `/broadcasts/${id}/cancel`)).body.status).toBe("CANCELLED");

    const jobs = await h.app.db.execute<{ due_in: number }>(
      sql`select extract(epoch from start_after - now())::float as due_in from pgboss.job where name = ${BROADCAST_RELEASE_JOB} and data->>'broadcastId' = ${id}`,
    );
    const due = rowsOf<{ due_in: number }>(jobs);
    expect(due).toHaveLength(1);
    expect(due[0]!.due_in).toBeGreaterThan(RELEASE_AFTER_MS / 1000 - 30);
    // Not yet: a slice of the cancelled run could still be sending them.
    await h.app.runtime.ports.queue.drain();
    expect((await recipientsOf(h, id)).map((r) => r.status)).toEqual(["queued", "queued", "queued", "queued"]);

    await h.app.db.execute(sql`update pgboss.job set start_after = now() where name = ${BROADCAST_RELEASE_JOB} and data->>'broadcastId' = ${id}`);
    await h.app.runtime.ports.queue.drain();
    const rows = await recipientsOf(h, id);
    const reached = rows.find((r) => r.id === batch[0]!.recipientId)!;
    expect(reached).toMatchObject({ status: "queued", messageId: batch[0]!.messageId });
    const others = rows.filter((r) => r !== reached);
    expect(others.map((r) => [r.status, r.skipReason, r.messageId])).toEqual(others.map(() => ["skipped", "cancelled", null]));
    const left = await h.app.db.select({ id: messages.id }).from(messages).where(eq(messages.broadcastId, id));
    expect(left.map((m) => m.id)).toEqual([batch[0]!.messageId]);
    const got = await h.app.call("GET", `/broadcasts/${id}`, { key: seeded.key });
    expect(got.body.stats).toMatchObject({ total: 4, skipped: 3, queued: 1, pending: 0 });
  });

  it("a release job the previous release queued (snake_case broadcast_id) still releases after a deploy", async () => {
    const id = await draftTo(2, "Queued before the deploy");
    await h.app.db.update(broadcasts).set({ status: "SENDING", startedAt: h.app.clock.now() }).where(eq(broadcasts.id, id));
    const { ctx, claim } = await claimOf(id);
    await claimBatch(ctx, claim, 2);
    expect((await write(h, seeded.key, `/broadcasts/${id}/cancel`)).body.status).toBe("CANCELLED");
    // The job as the release before issue 33 wrote it, due now.
    const rewritten = await h.app.db.execute(
      sql`update pgboss.job set data = jsonb_build_object('broadcast_id', data->>'broadcastId'), start_after = now()
          where name = ${BROADCAST_RELEASE_JOB} and data->>'broadcastId' = ${id} returning id`,
    );
    expect(rowsOf(rewritten)).toHaveLength(1);
    await h.app.runtime.ports.queue.drain();
    const rows = await recipientsOf(h, id);
    expect(rows.map((r) => [r.status, r.skipReason, r.messageId])).toEqual([
      ["skipped", "cancelled", null],
      ["skipped", "cancelled", null],
    ]);
  });

  it("a broadcast cancelled before it ever sent queues no release", async () => {
    const id = await draftTo(2, "Never sent");
    expect((await write(h, seeded.key, `/broadcasts/${id}/cancel`)).body.status).toBe("CANCELLED");
    const jobs = await h.app.db.execute(sql`select id from pgboss.job where name = ${BROADCAST_RELEASE_JOB} and data->>'broadcastId' = ${id}`);
    expect(rowsOf(jobs)).toEqual([]);
  });

  it("a cancel in the middle of a real run leaves nothing queued without the provider's id", async () => {
    // 20 a second: the run is still going when the cancel lands.
    await h.app.db.update(channels).set({ throughputMps: 20 }).where(eq(channels.id, ready.channel.id));
    await fetch(`${h.server.url}/api/simulator/control/numbers/throughput`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ phone_number_id: phoneNumberId, messages_per_second: 20 }),
    });
    try {
      const id = await draftTo(120, "Cancelled mid-run");
      await write(h, seeded.key, `/broadcasts/${id}/send`);
      const running = h.app.runtime.ports.queue.drain();
      await new Promise((r) => setTimeout(r, 1500));
      expect((await write(h, seeded.key, `/broadcasts/${id}/cancel`)).body.status).toBe("CANCELLED");
      await running;
      await h.settle(20);
      const unsent = await h.app.db
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.broadcastId, id), isNull(messages.platformMessageId)));
      expect(unsent).toEqual([]);
      const rows = await recipientsOf(h, id);
      const sent = rows.filter((r) => r.status === "queued" || r.status === "sent");
      expect(sent.length).toBeGreaterThan(0);
      expect(rows.filter((r) => r.status === "skipped").every((r) => r.skipReason === "cancelled" && r.messageId === null)).toBe(true);
      expect(sent.length + rows.filter((r) => r.status === "skipped").length).toBe(120);
      // What the provider accepted is exactly what kept a message.
      const withMessage = await h.app.db
        .select({ id: messages.id })
        .from(messages)
        .where(
          inArray(
            messages.id,
            sent.map((r) => r.messageId!),
          ),
        );
      expect(withMessage).toHaveLength(sent.length);
      expect(h.server.simulator.state.throughputStats(phoneNumberId).accepted).toBeGreaterThanOrEqual(sent.length);
      const stale = await h.app.db
        .select({ id: broadcastRecipients.id })
        .from(broadcastRecipients)
        .where(and(eq(broadcastRecipients.broadcastId, id), eq(broadcastRecipients.status, "pending")));
      expect(stale).toEqual([]);
    } finally {
      await h.app.db.update(channels).set({ throughputMps: null }).where(eq(channels.id, ready.channel.id));
    }
  }, 60_000);
});
