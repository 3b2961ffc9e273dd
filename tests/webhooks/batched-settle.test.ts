import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc, eq, inArray } from "drizzle-orm";
import { events, projects, webhookAttempts, webhookDeliveries } from "@/lib/db/schema";
import { emitEvent } from "@/lib/domain/events";
import { scheduleDelivery } from "@/lib/domain/webhooks/enqueue";
import { attemptDelivery, type AttemptScope } from "@/lib/domain/webhooks/attempt";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { startReceiver, type Receiver } from "../support/receiver";

/**
 * Deliveries that finish together (the worker starts a fetch's deliveries at once): each must get its
 * own outcome, its own attempt row, and only the current attempt may move it. Worth keeping whenever
 * their settles are shared (README "Performance": one statement for many was tried).
 */
let app: TestApp;
let receiver: Receiver;
let acme: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  receiver = await startReceiver();
  app.clock.set(Date.now());
  acme = await app.seed();
  const project = await app.call("PATCH", `/projects/${acme.projectId}`, { key: acme.key, body: { webhook_url: `${receiver.url}/hooks` } });
  expect(project.status).toBe(200);
});
afterAll(async () => {
  await receiver?.close();
  await app?.close();
});

const ctx = () => app.systemCtx();

async function newDelivery(n: number): Promise<string> {
  return app.db.transaction(async (tx) => {
    const eventId = (await emitEvent(
      { ...ctx(), db: tx },
      { project: { id: acme.projectId }, type: "message.status", payload: { message_id: `msg_${n}`, status: "delivered" }, at: app.clock.now(), defer: true },
    ))!;
    return (await scheduleDelivery(tx, app.runtime.ports.queue, { id: eventId, projectId: acme.projectId, type: "message.status" }, app.clock.now()))!;
  });
}

/** What an attempt reads first (attempt.ts AttemptScope), as its lookup would read it now. */
async function scopeOf(deliveryId: string): Promise<AttemptScope> {
  const [delivery] = await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
  const [event] = await app.db.select().from(events).where(eq(events.id, delivery!.eventId));
  const [project] = await app.db.select().from(projects).where(eq(projects.id, delivery!.projectId));
  return {
    delivery: { id: delivery!.id, status: delivery!.status, attemptCount: delivery!.attemptCount },
    event: { id: event!.id, type: event!.type, payload: event!.payload },
    project: {
      id: project!.id,
      webhookUrl: project!.webhookUrl,
      webhookPausedAt: project!.webhookPausedAt,
      webhookFailingSince: project!.webhookFailingSince,
      webhookSecretSealed: project!.webhookSecretSealed,
      previousWebhookSecretSealed: project!.previousWebhookSecretSealed,
      previousWebhookSecretExpiresAt: project!.previousWebhookSecretExpiresAt,
    },
  };
}

describe("deliveries settled together", () => {
  it("each gets its own outcome and attempt row: successes, a 410, and one already settled", async () => {
    receiver.reply = (req) => (req.raw.includes("msg_2") ? { status: 410, body: "gone" } : { status: 200, body: "ok" });
    const ids = [await newDelivery(0), await newDelivery(1), await newDelivery(2), await newDelivery(3)];
    // The last one is settled first: its attempt in the batch is skipped.
    expect(await attemptDelivery(ctx(), { deliveryId: ids[3]!, attempt: 1 })).toBe("succeeded");
    const outcomes = await Promise.all(ids.map((deliveryId) => attemptDelivery(ctx(), { deliveryId, attempt: 1 })));
    expect(outcomes).toEqual(["succeeded", "succeeded", "gone", "skipped"]);

    const rows = await app.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(ids.map((id) => byId.get(id)!.status)).toEqual(["succeeded", "succeeded", "failed", "succeeded"]);
    expect(byId.get(ids[2]!)!.lastStatusCode).toBe(410);
    expect(byId.get(ids[2]!)!.lastError).toMatch(/410 Gone/);
    expect(byId.get(ids[0]!)!.completedAt).toBeInstanceOf(Date);
    const attempts = await app.db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids));
    // One attempt each: the one settled before was skipped at its lookup, with no second POST.
    expect(attempts.filter((a) => a.deliveryId === ids[0]).map((a) => a.statusCode)).toEqual([200]);
    expect(attempts.filter((a) => a.deliveryId === ids[2]).map((a) => a.statusCode)).toEqual([410]);
    expect(attempts.filter((a) => a.deliveryId === ids[3])).toHaveLength(1);
  });

  it("a zombie attempt beside its retry: both recorded, only the first to settle moves the delivery", async () => {
    receiver.reply = () => ({ status: 200, body: "ok" });
    const id = await newDelivery(9);
    // Both read the delivery pending before either settles (what makes the first a zombie): the scope
    // each attempt starts from is read once here and handed to both, so no interleaving of the two
    // lookups under load can let one finish before the other has looked.
    const scope = await scopeOf(id);
    const outcomes = await Promise.all([
      attemptDelivery(ctx(), { deliveryId: id, attempt: 1 }, {}, scope),
      attemptDelivery(ctx(), { deliveryId: id, attempt: 2 }, {}, scope),
    ]);
    expect([...outcomes].sort()).toEqual(["skipped", "succeeded"]);
    const [row] = await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
    expect(row!.status).toBe("succeeded");
    // The attempt that moved it is the one that answered "succeeded".
    expect(row!.attemptCount).toBe(outcomes[0] === "succeeded" ? 1 : 2);
    const attempts = await app.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id)).orderBy(asc(webhookAttempts.attemptNumber));
    expect(attempts.map((a) => a.attemptNumber)).toEqual([1, 2]);
  });
});
