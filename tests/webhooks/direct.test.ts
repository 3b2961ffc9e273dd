import { createHmac } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq, inArray, sql } from "drizzle-orm";
import { events, inboundWebhooks, projects, webhookDeliveries } from "@/lib/db/schema";
import type { DirectDeliveryBatch } from "@/lib/domain/context";
import { emitEvent, emitEvents } from "@/lib/domain/events";
import type { AttemptScope } from "@/lib/domain/webhooks/attempt";
import { processInboundWebhook } from "@/lib/domain/ingest/process";
import { LEASE_MS, installDirectDeliveries, withDirectDeliveries } from "@/lib/domain/webhooks/direct";
import { GIVE_BACK_DELAY_MS, sweepExpiredLeases } from "@/lib/domain/webhooks/lease-sweep";
import { SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import { executeRows } from "@/lib/ports/db/bulk";
import { newId } from "@/lib/ids";
import type { Seeded } from "../support/app";
import { startReceiver, type Receiver } from "../support/receiver";
import { joinSandbox, startHarness, storeSentMessages, storeStatusEnvelope, textA, type Harness } from "../ingest/harness";

/**
 * Direct deliveries (lib/domain/webhooks/direct.ts): a worker attempts the deliveries its own
 * transaction wrote once it commits, with no queue job, and a lease sweep hands to a job what a dead
 * worker left. What must hold: attempted only after a commit, never after a rollback; bounded per
 * project (past the bound, a job as before); every outcome clears the lease; a lease that passes is
 * taken over once, by a job.
 */
let h: Harness;
let receiver: Receiver;
let acme: Seeded;
let secret: string;
let uninstall: ((graceMs?: number) => Promise<number>) | null = null;

beforeAll(async () => {
  h = await startHarness();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});
beforeEach(async () => {
  h.app.clock.set(Date.now());
  receiver.received.length = 0;
  receiver.reply = () => ({ status: 200, body: "ok" });
  acme = await h.app.seed();
  const project = await h.app.call("PATCH", `/projects/${acme.projectId}`, { key: acme.key, body: { webhook_url: `${receiver.url}/hooks` } });
  expect(project.status).toBe(200);
  secret = project.body.webhook_secret;
});
afterEach(async () => {
  await uninstall?.();
  uninstall = null;
});

function install(limits: { perProject?: number } = {}) {
  const { db, ports, settings } = h.app.systemCtx();
  uninstall = installDirectDeliveries({ db, ports, settings }, limits);
}

/** Waits for the direct attempts in flight (the uninstall's grace), then lets the next test install again. */
async function settled() {
  await uninstall?.(10_000);
  uninstall = null;
}

/** Events emitted in one transaction under a direct batch (or `batch` when given). */
async function emitInTransaction(count: number, options: { fail?: boolean; batch?: DirectDeliveryBatch } = {}): Promise<string[]> {
  const run = (direct: DirectDeliveryBatch | null) =>
    h.app.db.transaction(async (tx) => {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const ctx = { ...h.app.systemCtx(), db: tx, direct };
        const id = await emitEvent(ctx, {
          project: { id: acme.projectId },
          type: "message.status",
          payload: { message_id: `msg_${i}`, status: "read" },
          at: h.app.clock.now(),
        });
        ids.push(id!);
      }
      if (options.fail) throw new Error("rolled back on purpose");
      return ids;
    });
  return options.batch ? run(options.batch) : withDirectDeliveries(run);
}

async function deliveriesOf(eventIds: string[]) {
  const rows = await h.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.projectId, acme.projectId));
  return rows.filter((row) => eventIds.includes(row.eventId));
}

async function jobsFor(deliveryId: string): Promise<string[]> {
  const rows = await executeRows<{ singleton_key: string }>(
    h.app.db,
    sql`select singleton_key from pgboss.job where name = 'webhook.deliver' and data->>'deliveryId' = ${deliveryId} order by singleton_key`,
  );
  return rows.map((row) => row.singleton_key);
}

describe("direct deliveries", () => {
  it("are attempted once the transaction commits, with no queue job, and the lease is cleared", async () => {
    install();
    const [eventId] = await emitInTransaction(1);
    await settled();
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(JSON.parse(got!.raw)).toMatchObject({ event: "message.status", payload: { message_id: "msg_0" } });
    // Signed with the project's secret, as the statement that wrote the delivery read it (no lookup).
    expect(got!.headers["x-svc-signature"]).toBe(`sha256=${createHmac("sha256", Buffer.from(secret, "utf8")).update(got!.raw).digest("hex")}`);
    expect(got!.headers["x-svc-delivery"]).toBe(eventId);
    const [delivery] = await deliveriesOf([eventId!]);
    expect(delivery).toMatchObject({ status: "succeeded", attemptCount: 1, leaseExpiresAt: null });
    expect(await jobsFor(delivery!.id)).toEqual([]);
  });

  it("are never attempted when the transaction rolls back, and the slot is freed", async () => {
    install({ perProject: 1 });
    await expect(emitInTransaction(1, { fail: true })).rejects.toThrow("rolled back on purpose");
    await emitInTransaction(1);
    await settled();
    // Only the committed one went out; had the rollback kept its slot, the second would have had a job instead.
    expect(receiver.received).toHaveLength(1);
    const rows = await h.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.projectId, acme.projectId));
    expect(rows).toHaveLength(1);
    expect(await jobsFor(rows[0]!.id)).toEqual([]);
  });

  it("past the per-project bound, a delivery gets its job as before", async () => {
    install({ perProject: 1 });
    const eventIds = await emitInTransaction(2);
    const deliveries = await deliveriesOf(eventIds);
    const leased = deliveries.filter((d) => d.leaseExpiresAt !== null || d.status === "succeeded");
    const queued = deliveries.filter((d) => d.leaseExpiresAt === null && d.status === "pending");
    expect(leased).toHaveLength(1);
    expect(queued).toHaveLength(1);
    expect(await jobsFor(queued[0]!.id)).toEqual([`${queued[0]!.id}:1`]);
    await settled();
    await h.app.runtime.ports.queue.drain();
    expect(receiver.received).toHaveLength(2);
    expect((await deliveriesOf(eventIds)).map((d) => d.status)).toEqual(["succeeded", "succeeded"]);
  });

  it("a failed attempt schedules attempt 2 as a job and ends the lease", async () => {
    receiver.reply = () => ({ status: 500, body: "down" });
    install();
    const [eventId] = await emitInTransaction(1);
    await settled();
    const [delivery] = await deliveriesOf([eventId!]);
    expect(delivery).toMatchObject({ status: "pending", attemptCount: 1, lastStatusCode: 500, leaseExpiresAt: null });
    expect(await jobsFor(delivery!.id)).toEqual([`${delivery!.id}:2`]);
  });

  it("a lease left by a worker that died is handed to a job once it has passed, exactly once", async () => {
    // A batch whose commit never dispatches: the worker died between its commit and the attempt.
    const dead: DirectDeliveryBatch = { reserve: (_project, now) => new Date(now.getTime() + LEASE_MS), settle: () => {} };
    const [eventId] = await emitInTransaction(1, { batch: dead });
    const [leased] = await deliveriesOf([eventId!]);
    expect(leased).toMatchObject({ status: "pending", attemptCount: 0 });
    expect(leased!.leaseExpiresAt).toBeInstanceOf(Date);
    expect(await jobsFor(leased!.id)).toEqual([]);

    // Not before the lease has passed: the worker may still be attempting it.
    h.app.clock.advance(LEASE_MS - 1_000);
    expect(await sweepExpiredLeases(h.app.systemCtx())).toBe(0);
    h.app.clock.advance(2_000);
    const sweeps = await Promise.all([sweepExpiredLeases(h.app.systemCtx()), sweepExpiredLeases(h.app.systemCtx())]);
    expect(sweeps.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await jobsFor(leased!.id)).toEqual([`${leased!.id}:1`]);
    expect(await sweepExpiredLeases(h.app.systemCtx())).toBe(0);

    await h.app.runtime.ports.queue.drain();
    expect(receiver.received).toHaveLength(1);
    const [delivered] = await deliveriesOf([eventId!]);
    expect(delivered).toMatchObject({ status: "succeeded", attemptCount: 1, leaseExpiresAt: null });
  });

  it("an inbound message's message.received goes out from the ingest job itself, with no delivery job", async () => {
    const tester = "15551113001";
    await joinSandbox(h, acme.projectId, tester);
    receiver.received.length = 0;
    // The join's own message.received went out by its job, before the dispatcher was installed.
    const before = new Set((await h.app.db.select({ id: webhookDeliveries.id }).from(webhookDeliveries)).map((d) => d.id));
    install();
    const id = newId("inboundWebhook");
    const body = JSON.stringify(textA(SANDBOX_PHONE_NUMBER_ID, tester, "wamid.DIRECT-1", "hello direct"));
    await h.app.db.insert(inboundWebhooks).values({ id, platform: "PLATFORM_A", body, receivedAt: h.app.clock.now() });
    await processInboundWebhook(h.app.systemCtx(), { id });
    await settled();
    const received = receiver.received.map((r) => JSON.parse(r.raw) as { event: string; payload: { content?: { text?: string } } });
    expect(received.map((r) => r.event)).toEqual(["message.received"]);
    const mine = (await h.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.projectId, acme.projectId))).filter(
      (d) => d.eventType === "message.received" && !before.has(d.id),
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ status: "succeeded", leaseExpiresAt: null });
    expect(await jobsFor(mine[0]!.id)).toEqual([]);
  });

  it("an envelope of statuses, applied as a set, sends each message.status from the ingest job itself", async () => {
    const sent = await storeSentMessages(h, acme.projectId, ["a", "b", "c"]);
    const id = await storeStatusEnvelope(
      h,
      sent.map((m) => [m.pid, "delivered"]),
    );
    install();
    await processInboundWebhook(h.app.systemCtx(), { id });
    await settled();
    expect(receiver.received.map((r) => (JSON.parse(r.raw) as { event: string }).event)).toEqual(["message.status", "message.status", "message.status"]);
    const mine = await h.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.projectId, acme.projectId));
    expect(mine.map((d) => [d.status, d.leaseExpiresAt])).toEqual([
      ["succeeded", null],
      ["succeeded", null],
      ["succeeded", null],
    ]);
    for (const delivery of mine) expect(await jobsFor(delivery.id)).toEqual([]);
    // Signed with the project's secret as the run's own read of the project gave it (no lookup per attempt).
    for (const got of receiver.received) {
      expect(got.headers["x-svc-signature"]).toBe(`sha256=${createHmac("sha256", Buffer.from(secret, "utf8")).update(got.raw).digest("hex")}`);
    }
  });

  it("a run of events stored together writes its leased deliveries in one go, each handed over with what its attempt reads", async () => {
    const handed: { projectId: string; deliveryId: string | null; scope: AttemptScope | undefined }[] = [];
    const recording: DirectDeliveryBatch = {
      reserve: (_projectId, now) => new Date(now.getTime() + LEASE_MS),
      settle: (projectId, deliveryId, scope) => void handed.push({ projectId, deliveryId, scope }),
    };
    const at = h.app.clock.now();
    const payloads = ["a", "b", "c"].map((name) => ({ message_id: `msg_${name}`, status: "delivered" }));
    const ids = await h.app.db.transaction((tx) =>
      emitEvents(
        { ...h.app.systemCtx(), db: tx, direct: recording },
        payloads.map((payload) => ({ project: { id: acme.projectId }, type: "message.status" as const, payload, at })),
      ),
    );
    expect(ids).toHaveLength(3);
    const [project] = await h.app.db.select().from(projects).where(eq(projects.id, acme.projectId));
    const stored = new Map((await h.app.db.select().from(events).where(inArray(events.id, ids))).map((e) => [e.id, e.payload]));
    expect([...stored.values()].map((p) => (p as { message_id: string }).message_id).sort()).toEqual(["msg_a", "msg_b", "msg_c"]);
    const deliveries = await deliveriesOf(ids);
    expect(deliveries.map((d) => d.status)).toEqual(["pending", "pending", "pending"]);
    for (const delivery of deliveries) {
      expect(delivery.leaseExpiresAt).not.toBeNull();
      expect(await jobsFor(delivery.id)).toEqual([]);
    }
    expect(handed.map((x) => x.deliveryId).sort()).toEqual(deliveries.map((d) => d.id).sort());
    for (const { projectId, deliveryId, scope } of handed) {
      const delivery = deliveries.find((d) => d.id === deliveryId)!;
      expect(projectId).toBe(acme.projectId);
      expect(scope).toEqual({
        delivery: { id: deliveryId, status: "pending", attemptCount: 0 },
        event: { id: delivery.eventId, type: "message.status", payload: stored.get(delivery.eventId) },
        project: {
          id: acme.projectId,
          webhookUrl: project!.webhookUrl,
          webhookPausedAt: null,
          webhookFailingSince: project!.webhookFailingSince,
          webhookSecretSealed: project!.webhookSecretSealed,
          previousWebhookSecretSealed: project!.previousWebhookSecretSealed,
          previousWebhookSecretExpiresAt: project!.previousWebhookSecretExpiresAt,
        },
      });
    }
  });

  it("attempts still running when a stopping worker's grace ends go to jobs at once, and one that then finishes is not made twice", async () => {
    receiver.reply = () => ({ status: 200, body: "ok", delayMs: 1_500 });
    install();
    const [eventId] = await emitInTransaction(1);
    await receiver.waitFor(1);
    const stop = uninstall!;
    uninstall = null;
    const givenAt = Date.now();
    expect(await stop(50)).toBe(1);
    const [given] = await deliveriesOf([eventId!]);
    expect(given).toMatchObject({ status: "pending", attemptCount: 0, leaseExpiresAt: null });
    expect(await jobsFor(given!.id)).toEqual([`${given!.id}:1`]);
    // Its job waits out the longest the running attempt can take (GIVE_BACK_DELAY_MS): a worker draining
    // now does not POST beside it, which put two recorded successes on one delivery.
    const [job] = await executeRows<{ start_after: string }>(h.app.db, sql`select start_after from pgboss.job where singleton_key = ${`${given!.id}:1`}`);
    expect(new Date(job!.start_after).getTime()).toBeGreaterThanOrEqual(givenAt + GIVE_BACK_DELAY_MS - 1_000);
    await h.app.runtime.ports.queue.drain();
    expect(receiver.received).toHaveLength(1);

    // The attempt still in flight finishes and is recorded; the job, once due, finds it done.
    for (let i = 0; i < 100 && (await deliveriesOf([eventId!]))[0]!.status === "pending"; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await deliveriesOf([eventId!]))[0]).toMatchObject({ status: "succeeded", attemptCount: 1 });
    await h.app.db.execute(sql`update pgboss.job set start_after = now() where singleton_key = ${`${given!.id}:1`}`);
    await h.app.runtime.ports.queue.drain();
    expect(receiver.received).toHaveLength(1);
    const [successes] = await executeRows<{ n: number }>(
      h.app.db,
      sql`select count(*)::int as n from webhook_attempts where delivery_id = ${given!.id} and status_code between 200 and 299`,
    );
    expect(successes!.n).toBe(1);
  });
});
