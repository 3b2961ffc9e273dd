import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "@/lib/db/schema";
import { runJob } from "@/lib/jobs/define";
import { scheduleMaintenance } from "@/lib/jobs";
import { auditExpireJob } from "@/lib/domain/audit/jobs";
import { AUDIT_EXPIRE_JOB } from "@/lib/domain/audit/retention";
import { servicesOf } from "@/lib/server/runtime";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { addOperator, dash } from "../dashboard/support";
import { AUDIT_ACTIONS } from "@/lib/shared/audit-actions";

/** GET /audit-events: scope, tenancy, paging, filters, the 90-day window and the daily cleanup. */

let app: TestApp;
let acme: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed({ projectName: "Listed" });
});
afterAll(() => app?.close());

const rotate = (seeded: { projectId: string; key: string }) => app.call("POST", `/projects/${seeded.projectId}/rotate-webhook-secret`, { key: seeded.key });
const list = (key: string, query = "") => app.call("GET", `/audit-events${query}`, { key });
const DAY = 24 * 3600_000;

describe("GET /audit-events", () => {
  it("needs projects:read", async () => {
    const noRead = await app.addKey(acme, ["messages:send"]);
    const refused = await list(noRead);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: "insufficient_scope", required_scope: "projects:read" });
    expect((await app.call("GET", "/audit-events/aud_01jxq4zzzzzzzzzzzzzzzzzzzz", { key: noRead })).status).toBe(403);
    const reader = await app.addKey(acme, ["projects:read"]);
    expect((await list(reader)).status).toBe(200);
  });

  it("lists only the caller's project; another project's event is 404", async () => {
    const mine = await app.seed({ projectName: "Mine" });
    const other = await app.addProject(mine, "Other");
    expect((await rotate(other)).status).toBe(200);
    expect((await list(mine.key)).body).toEqual({ object: "list", data: [], has_more: false });
    const theirs = await list(other.key);
    expect(theirs.body.data).toHaveLength(1);
    const id = theirs.body.data[0].id as string;
    expect((await app.call("GET", `/audit-events/${id}`, { key: mine.key })).status).toBe(404);
    expect((await app.call("GET", `/audit-events/${id}`, { key: other.key })).body).toEqual(theirs.body.data[0]);
    // Nor is it a cursor of this project's list.
    expect((await list(mine.key, `?starting_after=${id}`)).status).toBe(400);
  });

  it("newest first, a page at a time, with the spec's shape", async () => {
    const seeded = await app.seed({ projectName: "Paged" });
    for (let i = 0; i < 5; i++) expect((await rotate(seeded)).status).toBe(200);
    const all = await list(seeded.key);
    expect(all.body.data).toHaveLength(5);
    const ids = all.body.data.map((e: { id: string }) => e.id);
    expect([...ids].sort().reverse()).toEqual(ids);
    expect(all.body.data[0]).toEqual({
      object: "audit_event",
      id: expect.stringMatching(/^aud_/),
      actor: { type: "api_key", id: seeded.keyId, display: expect.stringMatching(/^test \(svc_live_/) },
      action: "project.webhook_secret_rotated",
      target: { type: "project", id: seeded.projectId },
      details: expect.any(Object),
      ip: null,
      created_at: app.clock.now().toISOString(),
    });

    const first = await list(seeded.key, "?limit=2");
    expect(first.body).toMatchObject({ has_more: true });
    const second = await list(seeded.key, `?limit=2&starting_after=${first.body.data[1].id}`);
    const third = await list(seeded.key, `?limit=2&starting_after=${second.body.data[1].id}`);
    expect(third.body.has_more).toBe(false);
    expect([...first.body.data, ...second.body.data, ...third.body.data].map((e: { id: string }) => e.id)).toEqual(ids);
    expect((await list(seeded.key, "?limit=0")).status).toBe(400);
  });

  it("filters by action and by actor", async () => {
    const seeded = await app.seed({ projectName: "Filtered" });
    const operator = await addOperator(app, seeded, "admin");
    expect((await rotate(seeded)).status).toBe(200);
    const key = await dash(app, "POST", `/projects/${seeded.projectId}/keys`, { as: operator, body: { name: "CI", scopes: ["*"] } });
    expect(key.status).toBe(200);

    const created = await list(seeded.key, "?action=api_key.created");
    expect(created.body.data.map((e: { action: string }) => e.action)).toEqual(["api_key.created"]);
    const byOperator = await list(seeded.key, `?actor_id=${operator.userId}`);
    expect(byOperator.body.data).toHaveLength(1);
    expect(byOperator.body.data[0].actor).toEqual({ type: "user", id: operator.userId, display: operator.email });
    expect((await list(seeded.key, `?actor_id=${seeded.keyId}`)).body.data.map((e: { action: string }) => e.action)).toEqual([
      "project.webhook_secret_rotated",
    ]);
    const bad = await list(seeded.key, "?action=api_key.deleted");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: "invalid_request", issues: { action: expect.any(Array) } });

    // The dashboard reads the same list for the operator's project.
    const viaDashboard = await dash(app, "GET", `/projects/${seeded.projectId}/audit-events`, { as: operator });
    expect(viaDashboard.body.data.map((e: { action: string }) => e.action)).toEqual(["api_key.created", "project.webhook_secret_rotated"]);
  });

  it("filters by target type; every action of the union is a filter, an unknown target type is 400", async () => {
    const seeded = await app.seed({ projectName: "By target" });
    expect((await rotate(seeded)).status).toBe(200);
    const fn = await app.call("POST", "/functions", { key: seeded.key, body: { slug: "order-bot", name: "Order bot", trigger_type: "KEYWORD" } });
    expect((await app.call("PUT", `/functions/${fn.body.id}/secrets`, { key: seeded.key, body: { STRIPE_KEY: "sk_live_1" } })).status).toBe(200);

    const functions = await list(seeded.key, "?target_type=function");
    expect(functions.body.data.map((e: { action: string; target: unknown }) => [e.action, e.target])).toEqual([
      ["function.secret_set", { type: "function", id: fn.body.id }],
    ]);
    expect(functions.body.data[0].details).toEqual({ slug: "order-bot", name: "STRIPE_KEY", created: true });
    const both = await list(seeded.key, "?target_type=project&action=function.secret_set");
    expect(both.body.data).toEqual([]);
    for (const action of AUDIT_ACTIONS) expect((await list(seeded.key, `?action=${action}&limit=1`)).status, action).toBe(200);
    const bad = await list(seeded.key, "?target_type=phone_number");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: "invalid_request", issues: { target_type: expect.any(Array) } });
  });
});

describe("entries written before the union", () => {
  it("still read, whatever their details held", async () => {
    const seeded = await app.seed({ projectName: "Legacy" });
    const id = "aud_01j0000000000000000000000a";
    await app.db.insert(auditEvents).values({
      id,
      projectId: seeded.projectId,
      organizationId: seeded.orgId,
      actorType: "system",
      actorId: null,
      actorDisplay: "svc CLI",
      action: "api_key.created",
      targetType: "api_key",
      targetId: "key_legacy",
      details: { name: "old", scopes: ["*"], note: "a field the union does not list" },
      ip: null,
      createdAt: app.clock.now(),
    });
    const got = await app.call("GET", `/audit-events/${id}`, { key: seeded.key });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      action: "api_key.created",
      target: { type: "api_key", id: "key_legacy" },
      details: { note: "a field the union does not list" },
    });
  });
});

describe("kept 90 days", () => {
  it("entries past 90 days are never answered, and the daily cleanup deletes them", async () => {
    const seeded = await app.seed({ projectName: "Aging" });
    const start = app.clock.now();
    try {
      expect((await rotate(seeded)).status).toBe(200);
      const old = (await list(seeded.key)).body.data[0].id as string;

      app.clock.set(start.getTime() + 89 * DAY);
      expect((await list(seeded.key)).body.data.map((e: { id: string }) => e.id)).toEqual([old]);

      app.clock.set(start.getTime() + 90 * DAY + 1000);
      expect((await rotate(seeded)).status).toBe(200);
      const listed = (await list(seeded.key)).body.data.map((e: { id: string }) => e.id);
      expect(listed).toHaveLength(1);
      expect(listed).not.toContain(old);
      expect((await app.call("GET", `/audit-events/${old}`, { key: seeded.key })).status).toBe(404);
      expect(await app.db.select().from(auditEvents).where(eq(auditEvents.id, old))).toHaveLength(1);

      await runJob(auditExpireJob, servicesOf(app.runtime), {}, { id: "job-1", retryCount: 0, retryLimit: 3 });
      expect(await app.db.select().from(auditEvents).where(eq(auditEvents.id, old))).toEqual([]);
      expect((await app.db.select().from(auditEvents).where(eq(auditEvents.projectId, seeded.projectId))).map((r) => r.id)).toEqual(listed);
    } finally {
      app.clock.set(start);
    }
  });

  it("the cleanup is a daily chain that worker starts schedule once", async () => {
    const live = async () => {
      const result = (await app.db.execute(
        sql`select count(*)::int as n from pgboss.job where name = ${AUDIT_EXPIRE_JOB} and state in ('created', 'retry', 'active')`,
      )) as unknown;
      const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { n: number }[];
      return Number(rows[0]!.n);
    };
    await app.db.execute(sql`delete from pgboss.job where name = ${AUDIT_EXPIRE_JOB}`);
    for (let start = 0; start < 3; start++) await scheduleMaintenance(app.runtime.ports.queue);
    expect(await live()).toBe(1);
  });
});
