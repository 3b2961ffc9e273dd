import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { webhookDeliveries } from "@/lib/db/schema";
import { attemptDelivery } from "@/lib/domain/webhooks/attempt";
import type { Seeded } from "../support/app";
import { startReceiver, type Receiver } from "../support/receiver";
import { startHarness, type Harness } from "../messages/support";

let h: Harness;
let receiver: Receiver;
let acme: Seeded;
let secret: string;
const TESTER = "15557654321";

beforeAll(async () => {
  h = await startHarness();
  receiver = await startReceiver();
  acme = await h.app.seed();
  const patched = await h.app.call("PATCH", `/projects/${acme.projectId}`, { key: acme.key, body: { webhook_url: `${receiver.url}/svc` } });
  secret = patched.body.webhook_secret;
  await h.join(acme.projectId, TESTER);
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

const received = (type: string) => receiver.received.filter((r) => JSON.parse(r.raw).event === type);

describe("inbound → customer webhook", () => {
  it("a receiver that is down gets every event once it is back, with the same delivery ids, and every attempt is logged", async () => {
    receiver.received.length = 0;
    receiver.reply = () => ({ status: 503, body: "down for maintenance" });
    for (const text of ["one", "two", "three"]) await h.customer({ from: TESTER, type: "text", text });
    await h.settle(20);
    const failed = received("message.received").filter((r) => ["one", "two", "three"].includes(JSON.parse(r.raw).payload.text));
    // Each was tried (on a loaded machine the 10 s retry may already have come due: also a 503).
    expect(new Set(failed.map((r) => JSON.parse(r.raw).payload.text))).toEqual(new Set(["one", "two", "three"]));

    receiver.reply = () => ({ status: 200, body: "ok" });
    const pending = await h.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.status, "pending"));
    expect(pending.length).toBeGreaterThanOrEqual(3);
    // The scheduled retries come due (they wait 10 s ± 10% in the queue); run them now.
    for (const d of pending) await attemptDelivery(h.app.systemCtx(), { deliveryId: d.id, attempt: d.attemptCount + 1 });

    const byText = (text: string) => received("message.received").filter((r) => JSON.parse(r.raw).payload.text === text);
    for (const text of ["one", "two", "three"]) {
      const tries = byText(text);
      expect(tries.length).toBeGreaterThanOrEqual(2);
      expect(new Set(tries.map((r) => r.headers["x-svc-delivery"])).size).toBe(1);
      expect(new Set(tries.map((r) => r.headers["webhook-id"])).size).toBe(1);
    }
    const list = await h.app.call("GET", "/webhook-deliveries?event=message.received", { key: acme.key });
    const ours = list.body.data.filter((d: { id: string }) => pending.some((p) => p.id === d.id));
    expect(ours.every((d: { status: string; attempt_count: number }) => d.status === "succeeded" && d.attempt_count >= 2)).toBe(true);
    const detail = await h.app.call("GET", `/webhook-deliveries/${ours[0].id}`, { key: acme.key });
    const codes = detail.body.attempts.map((a: { status_code: number }) => a.status_code);
    expect(codes[0]).toBe(503);
    expect(codes.at(-1)).toBe(200);
    expect(codes.filter((c: number) => c === 200)).toHaveLength(1);
    expect(detail.body.attempts[0].response_excerpt).toBe("down for maintenance");
  });

  it("with the worker running, an inbound message reaches the receiver as a verifiable message.received", async () => {
    receiver.received.length = 0;
    await h.app.runtime.ports.queue.startWorkers({ pollingIntervalSeconds: 0.5 });
    const started = Date.now();
    const { message_id } = await h.customer({ from: TESTER, type: "text", text: "is my order ready?" });
    const deadline = Date.now() + 5000;
    while (!received("message.received").length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const [got] = received("message.received");
    expect(got).toBeDefined();
    console.log(`inbound → webhook: ${got!.at - started} ms`);

    const body = JSON.parse(got!.raw);
    expect(body.event).toBe("message.received");
    expect(body.payload).toMatchObject({ type: "text", text: "is my order ready?", from: `+${TESTER}` });
    expect(body.payload.messages[0].id).toBe(message_id);
    expect(() => new Webhook(secret).verify(got!.raw, got!.headers as Record<string, string>)).not.toThrow();
    expect(got!.headers["x-svc-signature"]).toBe(`sha256=${createHmac("sha256", secret).update(got!.raw).digest("hex")}`);
  });
});
