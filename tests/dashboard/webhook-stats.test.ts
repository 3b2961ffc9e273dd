import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, webhookAttempts, webhookDeliveries } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { addOperator, dash, type Operator } from "./support";

let app: TestApp;
let acme: Seeded;
let viewer: Operator;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
  viewer = await addOperator(app, acme, "viewer");
});
afterAll(() => app.close());

/** Attempts as the delivery engine records them, at chosen times (the stats read these rows). */
async function attempts(projectId: string, rows: { at: Date; status: number | null; ms: number }[]) {
  const eventId = newId("event");
  await app.db.insert(events).values({ id: eventId, projectId, type: "message.received", payload: {}, deliver: true, route: "external" });
  const deliveryId = newId("webhookDelivery");
  await app.db.insert(webhookDeliveries).values({ id: deliveryId, projectId, eventId, eventType: "message.received", status: "pending" });
  let n = 0;
  for (const row of rows) {
    await app.db.insert(webhookAttempts).values({
      id: newId("webhookAttempt"),
      deliveryId,
      projectId,
      attemptNumber: ++n,
      url: "https://receiver.example/hook",
      startedAt: row.at,
      durationMs: row.ms,
      statusCode: row.status,
      ...(row.status === null ? { error: "timeout" } : {}),
    });
  }
}

describe("delivery success over time", () => {
  it("buckets the project's attempts per hour, counts timeouts as failures, and leaves other projects out", async () => {
    const now = app.clock.now();
    const hour = (back: number) => new Date(Math.floor(now.getTime() / 3600_000) * 3600_000 - back * 3600_000 + 60_000);
    await attempts(acme.projectId, [
      { at: hour(0), status: 200, ms: 40 },
      { at: hour(0), status: 204, ms: 60 },
      { at: hour(0), status: 500, ms: 80 },
      { at: hour(2), status: null, ms: 10_000 },
      { at: hour(30), status: 200, ms: 5 },
    ]);
    const other = await app.seed({ orgName: "Other" });
    await attempts(other.projectId, [{ at: hour(0), status: 500, ms: 1 }]);

    const res = await dash(app, "GET", `/projects/${acme.projectId}/webhook-deliveries/stats?hours=24`, { as: viewer });
    expect(res.status).toBe(200);
    expect(res.body.buckets).toHaveLength(24);
    const last = res.body.buckets.at(-1);
    expect(last).toMatchObject({ succeeded: 2, failed: 1, median_latency_ms: 60 });
    expect(res.body.buckets.at(-3)).toMatchObject({ succeeded: 0, failed: 1 });
    expect(res.body.totals).toEqual({ succeeded: 2, failed: 2, success_rate: 0.5 });

    const week = await dash(app, "GET", `/projects/${acme.projectId}/webhook-deliveries/stats?hours=168`, { as: viewer });
    expect(week.body.totals.succeeded).toBe(3);
    expect((await dash(app, "GET", `/projects/${acme.projectId}/webhook-deliveries/stats?hours=0`, { as: viewer })).status).toBe(400);
  });

  it("is a dashboard-only operation: API keys get the public 404", async () => {
    const res = await app.call("GET", "/webhook-deliveries/stats", { key: acme.key });
    expect(res.status).toBe(404);
  });
});
