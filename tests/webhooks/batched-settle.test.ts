import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { events, projects, webhookAttempts, webhookDeliveries } from "@/lib/db/schema";
import { attemptDelivery, settleOne, type AttemptScope } from "@/lib/domain/webhooks/attempt";
import { settleTogether, type FinalSettle, type SettleOne } from "@/lib/domain/webhooks/settle-batch";
import { newId } from "@/lib/ids";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { startReceiver, type Receiver } from "../support/receiver";
import { pendingStatusDelivery } from "../support/deliveries";

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

const newDelivery = (n: number) => pendingStatusDelivery(app, acme.projectId, `msg_${n}`);

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

function settleOf(deliveryId: string, attemptNumber = 1, status: FinalSettle["status"] = "succeeded"): FinalSettle {
  return {
    now: app.clock.now().toISOString(),
    deliveryId,
    projectId: acme.projectId,
    attemptId: newId("webhookAttempt", app.clock.now().getTime()),
    attemptNumber,
    url: `${receiver.url}/hooks`,
    durationMs: 3,
    statusCode: status === "succeeded" ? 200 : 500,
    error: null,
    excerpt: "ok",
    status,
    lastError: null,
  };
}

/** attempt.ts's own one-row settle, counting the settles that fell back to it. */
function countingOne(): { one: SettleOne; calls: string[] } {
  const calls: string[] = [];
  const one: SettleOne = (db, settle) => {
    calls.push(settle.deliveryId);
    return settleOne(db, settle);
  };
  return { one, calls };
}

async function xminsOf(deliveryIds: string[]): Promise<Map<string, string>> {
  const rows = await app.db
    .select({ deliveryId: webhookAttempts.deliveryId, xmin: sql<string>`${webhookAttempts}.xmin::text` })
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, deliveryIds));
  return new Map(rows.map((row) => [row.deliveryId, row.xmin]));
}

/**
 * Final settles that finish in the same turn of the event loop are written as one statement
 * (lib/domain/webhooks/settle-batch.ts): one transaction, so their attempt rows share an xmin. Each
 * caller still gets its own answer, a delivery is never in one statement twice, and a row the
 * statement cannot write fails only its own settle.
 */
describe("final settles written together", () => {
  it("settles asked for in one turn commit in one statement, each with its own answer", async () => {
    const ids = await Promise.all([0, 1, 2, 3, 4].map((n) => newDelivery(n)));
    // The fourth is settled already: its settle in the batch records the attempt and moves nothing.
    await app.db.update(webhookDeliveries).set({ status: "succeeded", attemptCount: 1 }).where(eq(webhookDeliveries.id, ids[3]!));
    const { one, calls } = countingOne();
    const answers = await Promise.all(ids.map((id, i) => settleTogether(app.db, settleOf(id, 1, i === 2 ? "failed" : "succeeded"), one)));
    expect(answers).toEqual([true, true, true, false, true]);
    expect(calls).toEqual([]);

    const rows = await app.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(ids.map((id) => byId.get(id)!.status)).toEqual(["succeeded", "succeeded", "failed", "succeeded", "succeeded"]);
    expect(byId.get(ids[2]!)!.lastStatusCode).toBe(500);
    expect(byId.get(ids[0]!)!.completedAt).toBeInstanceOf(Date);
    expect(byId.get(ids[0]!)!.leaseExpiresAt).toBeNull();
    const xmins = await xminsOf(ids);
    expect(xmins.size).toBe(5);
    expect(new Set(xmins.values()).size).toBe(1);
  });

  it("the same delivery twice in one turn goes in two statements, and only one attempt moves it", async () => {
    const id = await newDelivery(10);
    const { one } = countingOne();
    const answers = await Promise.all([settleTogether(app.db, settleOf(id, 1), one), settleTogether(app.db, settleOf(id, 2), one)]);
    expect([...answers].sort()).toEqual([false, true]);
    const attempts = await app.db
      .select({ n: webhookAttempts.attemptNumber, xmin: sql<string>`${webhookAttempts}.xmin::text` })
      .from(webhookAttempts)
      .where(eq(webhookAttempts.deliveryId, id));
    expect(attempts.map((a) => a.n).sort()).toEqual([1, 2]);
    expect(new Set(attempts.map((a) => a.xmin)).size).toBe(2);
    const [row] = await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
    expect(row!.status).toBe("succeeded");
    expect(row!.attemptCount).toBe(answers[0] ? 1 : 2);
  });

  it("a row the statement cannot write fails its own settle only; the others are written one by one", async () => {
    const ids = await Promise.all([20, 21, 22].map((n) => newDelivery(n)));
    const { one, calls } = countingOne();
    // A delivery id that does not exist: its attempt row breaks the foreign key, so the statement fails.
    const missing = "whd_does_not_exist";
    const settled = await Promise.allSettled([...ids, missing].map((id) => settleTogether(app.db, settleOf(id), one)));
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "rejected"]);
    expect(settled.slice(0, 3).map((s) => (s as PromiseFulfilledResult<boolean>).value)).toEqual([true, true, true]);
    expect([...calls].sort()).toEqual([...ids, missing].sort());
    const rows = await app.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids));
    expect(rows.map((row) => row.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    // Written one by one: three transactions.
    expect(new Set((await xminsOf(ids)).values()).size).toBe(3);
  });

  it("a receiver's answer holding a NUL is stored, and the delivery succeeds once", async () => {
    receiver.reply = () => ({ status: 200, body: "ok\u0000done" });
    try {
      const id = await newDelivery(30);
      expect(await attemptDelivery(ctx(), { deliveryId: id, attempt: 1 })).toBe("succeeded");
      const [row] = await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
      expect(row!.status).toBe("succeeded");
      const [attempt] = await app.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id));
      expect(attempt!.responseExcerpt).toBe("ok\uFFFDdone");
    } finally {
      receiver.reply = () => ({ status: 200, body: "ok" });
    }
  });
});
