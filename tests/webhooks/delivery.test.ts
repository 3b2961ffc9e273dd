import { createHmac } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { verify as githubStyleVerify } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import { projects, webhookAttempts, webhookDeliveries } from "@/lib/db/schema";
import { emitEvent } from "@/lib/domain/events";
import { scheduleDelivery } from "@/lib/domain/webhooks/enqueue";
import { attemptDelivery } from "@/lib/domain/webhooks/attempt";
import { MAX_ATTEMPTS, PAUSE_AFTER_MS } from "@/lib/domain/webhooks/schedule";
import { safeRequest } from "@/lib/ports/net/safe-request";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { startReceiver, type Receiver } from "../support/receiver";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys";

let app: TestApp;
let receiver: Receiver;
let acme: Seeded;
let secret: string;

beforeAll(async () => {
  app = await createTestApp();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await app?.close();
});
// Each test has its own project and webhook: rotation, pausing and the deliveries' state never carry over.
// The clock starts at the wall clock (tests move it days ahead): Standard Webhooks verifiers check the
// signed timestamp against real time.
beforeEach(async () => {
  app.clock.set(Date.now());
  receiver.received.length = 0;
  receiver.reply = () => ({ status: 200, body: "ok" });
  acme = await app.seed();
  const project = await app.call("PATCH", `/projects/${acme.projectId}`, { key: acme.key, body: { webhook_url: `${receiver.url}/hooks` } });
  expect(project.status).toBe(200);
  secret = project.body.webhook_secret;
});

const ctx = () => app.systemCtx();

/** An event routed to the webhook, with its delivery scheduled in the same transaction. */
async function newDelivery(type = "message.status", payload: Record<string, unknown> = { message_id: "msg_x", status: "delivered" }) {
  return app.db.transaction(async (tx) => {
    // Held (defer): this test schedules the delivery itself.
    const eventId = (await emitEvent(
      { ...ctx(), db: tx },
      { project: { id: acme.projectId }, type: type as "message.status", payload, at: app.clock.now(), defer: true },
    ))!;
    return (await scheduleDelivery(tx, app.runtime.ports.queue, { id: eventId, projectId: acme.projectId, type }, app.clock.now()))!;
  });
}

async function delivery(id: string) {
  return (await app.call("GET", `/webhook-deliveries/${id}`, { key: acme.key })).body;
}

describe("a delivery", () => {
  it("POSTs {event, payload, sentAt} signed per decisions.md: x-svc-signature HMAC and Standard Webhooks", async () => {
    const id = await newDelivery("message.status", { message_id: "msg_1", status: "read" });
    expect(await app.runtime.ports.queue.drain()).toBeGreaterThanOrEqual(1);
    const [got] = await receiver.waitFor(1);
    const body = JSON.parse(got!.raw);
    expect(Object.keys(body)).toEqual(["event", "payload", "sentAt"]);
    expect(body).toMatchObject({ event: "message.status", payload: { message_id: "msg_1", status: "read" } });
    expect(got!.path).toBe("/hooks");
    // Independent HMAC over the raw bytes, keyed by the whole secret string.
    const expected = `sha256=${createHmac("sha256", Buffer.from(secret, "utf8")).update(got!.raw).digest("hex")}`;
    expect(got!.headers["x-svc-signature"]).toBe(expected);
    expect(got!.headers["x-svc-event"]).toBe("message.status");
    const detail = await delivery(id);
    expect(got!.headers["x-svc-delivery"]).toBe(detail.event_id);
    expect(got!.headers["webhook-id"]).toBe(detail.event_id);
    // The Standard Webhooks library verifies it as any receiver would.
    expect(() => new Webhook(secret).verify(got!.raw, got!.headers as Record<string, string>)).not.toThrow();
    expect(detail).toMatchObject({ status: "succeeded", attempt_count: 1, last_status_code: 200 });
    expect(detail.attempts).toEqual([
      expect.objectContaining({
        object: "webhook_attempt",
        attempt_number: 1,
        status_code: 200,
        error: null,
        response_excerpt: "ok",
        url: `${receiver.url}/hooks`,
      }),
    ]);
  });

  it("500 then 200: two attempts, one delivery id, the retry scheduled about 10 s later", async () => {
    receiver.reply = (_r, i) => (i === 0 ? { status: 500, body: "boom" } : { status: 204 });
    const id = await newDelivery();
    await app.runtime.ports.queue.drain();
    let detail = await delivery(id);
    expect(detail).toMatchObject({ status: "pending", attempt_count: 1, last_status_code: 500 });
    const wait = new Date(detail.next_attempt_at).getTime() - app.clock.now().getTime();
    expect(wait).toBeGreaterThanOrEqual(9_000);
    expect(wait).toBeLessThanOrEqual(11_000);
    // The scheduled job fires (the queue holds it until then); run that attempt now.
    expect(await attemptDelivery(ctx(), { deliveryId: id, attempt: 2 })).toBe("succeeded");
    detail = await delivery(id);
    expect(detail).toMatchObject({ status: "succeeded", attempt_count: 2, last_status_code: 204 });
    expect(detail.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 204]);
    expect(detail.last_duration_ms).toBe(detail.attempts[1].duration_ms);
    const listed = (await app.call("GET", "/webhook-deliveries", { key: acme.key })).body.data.find((d: { id: string }) => d.id === id);
    expect(listed.last_duration_ms).toBe(detail.attempts[1].duration_ms);
    expect(new Set(receiver.received.map((r) => r.headers["x-svc-delivery"])).size).toBe(1);
    // A duplicate of an attempt already made (a job retried after its worker died) sends nothing.
    expect(await attemptDelivery(ctx(), { deliveryId: id, attempt: 2 })).toBe("skipped");
    expect(receiver.received).toHaveLength(2);
  });

  it("410 Gone stops at once", async () => {
    receiver.reply = () => ({ status: 410 });
    const id = await newDelivery();
    await app.runtime.ports.queue.drain();
    const detail = await delivery(id);
    expect(detail).toMatchObject({ status: "failed", attempt_count: 1, last_status_code: 410, next_attempt_at: null });
  });

  it("a final attempt records the attempt and settles the delivery in one statement: its outcome, error and times", async () => {
    receiver.reply = () => ({ status: 410, body: "gone" });
    const id = await newDelivery();
    app.clock.advance(5_000);
    const at = app.clock.now();
    expect(await attemptDelivery(ctx(), { deliveryId: id, attempt: 1 })).toBe("gone");
    const [row] = await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
    expect(row).toMatchObject({
      status: "failed",
      attemptCount: 1,
      lastStatusCode: 410,
      lastError: "410 Gone: the receiver asked to stop.",
      nextAttemptAt: null,
    });
    expect(row!.completedAt?.getTime()).toBe(at.getTime());
    expect(row!.updatedAt.getTime()).toBe(at.getTime());
    const [attempt] = await app.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id));
    expect(attempt).toMatchObject({
      projectId: acme.projectId,
      attemptNumber: 1,
      url: `${receiver.url}/hooks`,
      statusCode: 410,
      error: null,
      responseExcerpt: "gone",
    });
    expect(attempt!.startedAt.getTime()).toBe(at.getTime());
  });

  it("a final attempt overtaken while in flight (its job retried elsewhere) records its attempt but does not move the delivery", async () => {
    const id = await newDelivery();
    // While this attempt's POST is in flight, the retry of its job settles the delivery first.
    const overtaken: typeof safeRequest = async (url, options) => {
      const answer = await safeRequest(url, options);
      await app.db.update(webhookDeliveries).set({ status: "succeeded", attemptCount: 1, lastStatusCode: 201 }).where(eq(webhookDeliveries.id, id));
      return answer;
    };
    expect(await attemptDelivery(ctx(), { deliveryId: id, attempt: 1 }, { request: overtaken })).toBe("skipped");
    const [row] = await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
    expect(row).toMatchObject({ status: "succeeded", attemptCount: 1, lastStatusCode: 201, completedAt: null });
    const attempts = await app.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id));
    expect(attempts.map((a) => a.statusCode)).toEqual([200]);
  });

  it("a redirect is a failure and is not followed", async () => {
    receiver.reply = (r) => (r.path === "/hooks" ? { status: 302, headers: { location: `${receiver.url}/elsewhere` } } : { status: 200 });
    const id = await newDelivery();
    await app.runtime.ports.queue.drain();
    const detail = await delivery(id);
    expect(detail).toMatchObject({ status: "pending", last_status_code: 302 });
    expect(receiver.received.map((r) => r.path)).toEqual(["/hooks"]);
  });

  it("a receiver slower than the timeout is a failed attempt with the timeout recorded", async () => {
    receiver.reply = () => ({ status: 200, delayMs: 1500 });
    const id = await newDelivery();
    const outcome = await attemptDelivery(ctx(), { deliveryId: id, attempt: 1 }, { timeoutMs: 300 });
    expect(outcome).toBe("retry_scheduled");
    const detail = await delivery(id);
    expect(detail.attempts[0]).toMatchObject({ status_code: null, error: "timeout after 300 ms" });
    expect(detail.attempts[0].duration_ms).toBeLessThan(1500);
  });

  it("gives up after the 8th attempt", async () => {
    receiver.reply = () => ({ status: 503 });
    const id = await newDelivery();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) await attemptDelivery(ctx(), { deliveryId: id, attempt });
    const detail = await delivery(id);
    expect(detail).toMatchObject({ status: "failed", attempt_count: 8, next_attempt_at: null });
    expect(detail.attempts).toHaveLength(8);
  });

  it("response excerpts are capped at 2 KB", async () => {
    receiver.reply = () => ({ status: 200, body: "x".repeat(10_000) });
    const id = await newDelivery();
    await app.runtime.ports.queue.drain();
    expect((await delivery(id)).attempts[0].response_excerpt).toHaveLength(2048);
  });
});

describe("secret rotation", () => {
  it("right after a rotation, a real delivery verifies with third-party verifiers: the new secret on x-svc-signature, the old one on x-svc-signature-previous, both with standardwebhooks", async () => {
    const rotated = await app.call("POST", `/projects/${acme.projectId}/rotate-webhook-secret`, { key: acme.key });
    expect(rotated.status).toBe(200);
    const fresh: string = rotated.body.webhook_secret;
    expect(fresh).not.toBe(secret);
    await newDelivery();
    await app.runtime.ports.queue.drain();
    const [got] = await receiver.waitFor(1);
    const headers = got!.headers as Record<string, string>;
    // Exactly one value per header: GitHub-style verifiers compare the whole header.
    expect(headers["x-svc-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(headers["x-svc-signature-previous"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await githubStyleVerify(fresh, got!.raw, headers["x-svc-signature"]!)).toBe(true);
    expect(await githubStyleVerify(secret, got!.raw, headers["x-svc-signature-previous"]!)).toBe(true);
    expect(await githubStyleVerify(secret, got!.raw, headers["x-svc-signature"]!)).toBe(false);
    // Standard Webhooks: webhook-signature lists both (`v1,<new> v1,<old>`), either secret verifies.
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(new Webhook(fresh).verify(got!.raw, headers)).toEqual(JSON.parse(got!.raw));
    expect(new Webhook(secret).verify(got!.raw, headers)).toEqual(JSON.parse(got!.raw));
    // Independent HMACs over the raw bytes.
    const hmac = (s: string) => `sha256=${createHmac("sha256", s).update(got!.raw).digest("hex")}`;
    expect([headers["x-svc-signature"], headers["x-svc-signature-previous"]]).toEqual([hmac(fresh), hmac(secret)]);

    app.clock.advance(24 * 3600_000 + 1000);
    receiver.received.length = 0;
    await newDelivery();
    await app.runtime.ports.queue.drain();
    const [later] = await receiver.waitFor(1);
    const laterHeaders = later!.headers as Record<string, string>;
    expect(laterHeaders["x-svc-signature"]).toBe(`sha256=${createHmac("sha256", fresh).update(later!.raw).digest("hex")}`);
    expect(laterHeaders).not.toHaveProperty("x-svc-signature-previous");
    expect(await githubStyleVerify(fresh, later!.raw, laterHeaders["x-svc-signature"]!)).toBe(true);
    expect(() => new Webhook(secret).verify(later!.raw, laterHeaders)).toThrow();
  });
});

describe("an endpoint failing for 5 days", () => {
  it("is paused (deliveries wait), and updating the webhook resumes and sends what waited", async () => {
    receiver.reply = () => ({ status: 500 });
    const first = await newDelivery();
    await app.runtime.ports.queue.drain();
    app.clock.advance(PAUSE_AFTER_MS + 60_000);
    await attemptDelivery(ctx(), { deliveryId: first, attempt: 2 });
    const [paused] = await app.db.select().from(projects).where(eq(projects.id, acme.projectId));
    expect(paused!.webhookPausedAt).not.toBeNull();

    const waiting = await newDelivery();
    expect((await delivery(waiting)).status).toBe("paused");
    await app.runtime.ports.queue.drain();
    expect((await delivery(waiting)).attempt_count).toBe(0);

    receiver.reply = () => ({ status: 200 });
    receiver.received.length = 0;
    const updated = await app.call("PATCH", `/projects/${acme.projectId}`, { key: acme.key, body: { webhook_url: `${receiver.url}/hooks` } });
    expect(updated.status).toBe(200);
    await app.runtime.ports.queue.drain();
    expect((await delivery(waiting)).status).toBe("succeeded");
    const [resumed] = await app.db.select().from(projects).where(eq(projects.id, acme.projectId));
    expect(resumed!.webhookPausedAt).toBeNull();
  });
});

describe("SSRF guard", () => {
  it("refuses private webhook URLs when private networks are not allowed, at save time and at send time", async () => {
    // The deployment's setting (ctx.settings), as production has it: private receivers refused.
    const strict = await createTestApp({ settings: { allowPrivateNetwork: false } });
    try {
      const tenant = await strict.seed();
      for (const url of [
        "http://127.0.0.1/x",
        "http://10.0.0.1/x",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]/x",
        "http://[::ffff:127.0.0.1]/x",
        "http://0.0.0.0/x",
      ]) {
        const res = await strict.call("PATCH", `/projects/${tenant.projectId}`, { key: tenant.key, body: { webhook_url: url } });
        expect(res.status, url).toBe(400);
        expect(res.body.issues.webhook_url).toBeDefined();
      }
    } finally {
      await strict.close();
    }
    // Saved while allowed, refused at connect time once not allowed.
    const id = await newDelivery();
    await attemptDelivery(ctx(), { deliveryId: id, attempt: 1 }, { request: (u, o) => safeRequest(u, { ...o, allowPrivateNetwork: false }) });
    const detail = await delivery(id);
    expect(detail.attempts[0].error).toMatch(/^blocked: /);
  });
});

describe("deliveries API", () => {
  it("lists with filters, shows attempts, redelivers with the same event id, and isolates projects", async () => {
    receiver.reply = () => ({ status: 200 });
    const id = await newDelivery("participant.joined", { project_id: acme.projectId });
    await app.runtime.ports.queue.drain();
    const list = await app.call("GET", "/webhook-deliveries?event=participant.joined&status=succeeded", { key: acme.key });
    expect(list.status).toBe(200);
    expect(list.body.data.map((d: { id: string }) => d.id)).toContain(id);
    expect(list.body.data.every((d: { event_type: string; status: string }) => d.event_type === "participant.joined" && d.status === "succeeded")).toBe(true);

    const again = await app.call("POST", `/webhook-deliveries/${id}/redeliver`, { key: acme.key });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ trigger: "redeliver", status: "pending" });
    await app.runtime.ports.queue.drain();
    const ids = receiver.received.map((r) => r.headers["x-svc-delivery"]);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe(ids[1]);

    const other = await app.seed({ orgName: "Other" });
    expect((await app.call("GET", `/webhook-deliveries/${id}`, { key: other.key })).status).toBe(404);
    expect((await app.call("POST", `/webhook-deliveries/${id}/redeliver`, { key: other.key })).status).toBe(404);
    const readOnly = await app.addKey(acme, ["projects:read"]);
    expect((await app.call("POST", `/webhook-deliveries/${id}/redeliver`, { key: readOnly })).status).toBe(403);
    expect((await app.call("GET", "/webhook-deliveries?status=bogus", { key: acme.key })).status).toBe(400);
  });

  it("replay re-sends every matching event once", async () => {
    receiver.reply = () => ({ status: 200 });
    const since = app.clock.now();
    app.clock.advance(1000);
    const a = await newDelivery("call.event", { call_id: "a" });
    const b = await newDelivery("call.event", { call_id: "b" });
    await app.runtime.ports.queue.drain();
    receiver.received.length = 0;
    app.clock.advance(1000);
    const res = await app.call("POST", "/webhook-deliveries/replay", { key: acme.key, body: { since: since.toISOString(), event: "call.event" } });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    await app.runtime.ports.queue.drain();
    const replayed = receiver.received.map((r) => JSON.parse(r.raw).payload.call_id).sort();
    expect(replayed).toEqual(["a", "b"]);
    const [da, db] = [await delivery(a), await delivery(b)];
    expect(new Set(receiver.received.map((r) => r.headers["x-svc-delivery"]))).toEqual(new Set([da.event_id, db.event_id]));
    expect((await app.call("POST", "/webhook-deliveries/replay", { key: acme.key, body: { since: "yesterday" } })).status).toBe(400);
  });
});

describe("replay's status filter", () => {
  it("goes by each event's latest delivery, and none means never delivered", async () => {
    receiver.reply = () => ({ status: 200 });
    const since = app.clock.now();
    app.clock.advance(1000);
    await newDelivery("call.event", { call_id: "delivered" });
    // Stored for the webhook, its delivery never scheduled.
    await app.db.transaction((tx) =>
      emitEvent(
        { ...ctx(), db: tx },
        { project: { id: acme.projectId }, type: "call.event" as "message.status", payload: { call_id: "held" }, at: app.clock.now(), defer: true },
      ),
    );
    await app.runtime.ports.queue.drain();
    receiver.received.length = 0;
    app.clock.advance(1000);
    const replayed = async (status: string) => {
      const res = await app.call("POST", "/webhook-deliveries/replay", { key: acme.key, body: { since: since.toISOString(), event: "call.event", status } });
      expect(res.status).toBe(200);
      await app.runtime.ports.queue.drain();
      const ids = receiver.received.map((r) => JSON.parse(r.raw).payload.call_id as string).sort();
      receiver.received.length = 0;
      return ids;
    };
    expect(await replayed("none")).toEqual(["held"]);
    // The replay just delivered "held": both events' latest deliveries have succeeded now.
    expect(await replayed("succeeded")).toEqual(["delivered", "held"]);
    expect(await replayed("failed")).toEqual([]);
    expect(await replayed("none")).toEqual([]);
  });
});

describe("no webhook URL", () => {
  it("creates no delivery (the event stays and can be replayed later)", async () => {
    const bare = await app.seed({ orgName: "Bare" });
    await app.db.update(projects).set({ webhookUrl: null }).where(eq(projects.id, bare.projectId));
    forgetAuthenticatedKeys();
    const id = await app.db.transaction(async (tx) => {
      const eventId = (await emitEvent(
        { ...ctx(), db: tx },
        { project: { id: bare.projectId }, type: "message.status", payload: {}, at: app.clock.now(), defer: true },
      ))!;
      return scheduleDelivery(tx, app.runtime.ports.queue, { id: eventId, projectId: bare.projectId, type: "message.status" }, app.clock.now());
    });
    expect(id).toBeNull();
    expect(await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.projectId, bare.projectId))).toEqual([]);
  });
});

describe("an event emitted outside any job (an API request, a script)", () => {
  it("gets its delivery scheduled with it, and the delivery is made", async () => {
    receiver.reply = () => ({ status: 200 });
    const eventId = (await emitEvent(ctx(), {
      project: { id: acme.projectId },
      type: "message.status",
      payload: { message_id: "msg_outside_job", status: "read" },
      at: app.clock.now(),
    }))!;
    const [row] = await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId));
    expect(row).toMatchObject({ projectId: acme.projectId, status: "pending", trigger: "event" });
    await app.runtime.ports.queue.drain();
    const [got] = await receiver.waitFor(1);
    expect(JSON.parse(got!.raw)).toMatchObject({ event: "message.status", payload: { message_id: "msg_outside_job", status: "read" } });
    expect(await delivery(row!.id)).toMatchObject({ status: "succeeded", attempt_count: 1 });
  });
});
