import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { idempotencyKeys, projects } from "@/lib/db/schema";
import { canonicalHash, canonicalJson } from "@/lib/api/canonical-json";
import { idempotencyKeyOf, requestHashOf } from "@/lib/api/idempotency";
import { createTestApp, type Seeded, type TestApp } from "./support/app";
import { customWebhookSecret, expectError, expectHandlerHeaders, expectRateLimitHeaders } from "./support/wire";

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

const HOUR = 3600_000;
let counter = 0;
const newKey = () => `idem-${Date.now()}-${++counter}`;

async function projectCount(orgId: string) {
  return (await app.db.select({ id: projects.id }).from(projects).where(eq(projects.organizationId, orgId))).length;
}

async function fresh(): Promise<Seeded> {
  return app.seed({ orgName: `Idem ${++counter}` });
}

function post(seeded: Seeded, body: unknown, idempotencyKey?: string, extraHeaders: Record<string, string> = {}) {
  return app.call("POST", "/projects", {
    key: seeded.key,
    body,
    headers: { ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}), ...extraHeaders },
  });
}

describe("Idempotency-Key on POST /projects", () => {
  it("same key + same body replays the stored response with Idempotent-Replayed: true; one project is created", async () => {
    const s = await fresh();
    const key = newKey();
    const first = await post(s, { name: "Once", description: "only once" }, key);
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const second = await post(s, { name: "Once", description: "only once" }, key);
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expectHandlerHeaders(second);
    expectRateLimitHeaders(second);
    expect(second.headers.get("request-id")).not.toBe(first.headers.get("request-id"));
    expect(await projectCount(s.orgId)).toBe(2);
  });

  it("replays many times, still one project", async () => {
    const s = await fresh();
    const key = newKey();
    const first = await post(s, { name: "Many" }, key);
    for (let i = 0; i < 3; i++) {
      const again = await post(s, { name: "Many" }, key);
      expect(again.body.id).toBe(first.body.id);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
    }
    expect(await projectCount(s.orgId)).toBe(2);
  });

  it("without a key, two identical POSTs create two projects", async () => {
    const s = await fresh();
    const a = await post(s, { name: "Twin" });
    const b = await post(s, { name: "Twin" });
    expect(a.body.id).not.toBe(b.body.id);
    expect(await projectCount(s.orgId)).toBe(3);
  });

  it("same key + different body → 409 idempotency_key_reused, nothing created", async () => {
    const s = await fresh();
    const key = newKey();
    expect((await post(s, { name: "Original" }, key)).status).toBe(200);
    const reused = await post(s, { name: "Different" }, key);
    expectError(reused, 409, "idempotency_key_reused");
    expectHandlerHeaders(reused);
    expect(await projectCount(s.orgId)).toBe(2);
    // The original is still replayable.
    expect((await post(s, { name: "Original" }, key)).headers.get("idempotent-replayed")).toBe("true");
  });

  it("key order in the JSON body does not matter (canonical hash)", async () => {
    const s = await fresh();
    const key = newKey();
    const first = await app.call("POST", "/projects", {
      key: s.key,
      rawBody: '{"name":"Ordered","description":"d","require_opt_in":false}',
      headers: { "Idempotency-Key": key, "content-type": "application/json" },
    });
    expect(first.status).toBe(200);
    const second = await app.call("POST", "/projects", {
      key: s.key,
      rawBody: '{ "require_opt_in": false, "description": "d", "name": "Ordered" }',
      headers: { "Idempotency-Key": key, "content-type": "application/json" },
    });
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.id).toBe(first.body.id);
    expect(await projectCount(s.orgId)).toBe(2);
  });

  it("body idempotency_key works alone and equals the header form", async () => {
    const s = await fresh();
    const key = newKey();
    const viaBody = await post(s, { name: "Body key", idempotency_key: key });
    expect(viaBody.status).toBe(200);
    expect(viaBody.body).not.toHaveProperty("idempotency_key");
    const viaHeader = await post(s, { name: "Body key" }, key);
    expect(viaHeader.headers.get("idempotent-replayed")).toBe("true");
    expect(viaHeader.body.id).toBe(viaBody.body.id);
    const viaBoth = await post(s, { name: "Body key", idempotency_key: key }, key);
    expect(viaBoth.headers.get("idempotent-replayed")).toBe("true");
    expect(viaBoth.body.id).toBe(viaBody.body.id);
    expect(await projectCount(s.orgId)).toBe(2);
  });

  it("body idempotency_key equal to the header is accepted", async () => {
    const s = await fresh();
    const key = newKey();
    const res = await post(s, { name: "Both", idempotency_key: key }, key);
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("Both");
  });

  it("body idempotency_key different from the header → 400, nothing created", async () => {
    const s = await fresh();
    const res = await post(s, { name: "Mismatch", idempotency_key: newKey() }, newKey());
    expectError(res, 400, "invalid_request");
    expect(res.body.issues).toEqual({ idempotency_key: [expect.stringContaining("Idempotency-Key header")] });
    expect(await projectCount(s.orgId)).toBe(1);
  });

  it("a non-string body idempotency_key → 400", async () => {
    const s = await fresh();
    const res = await post(s, { name: "Typed", idempotency_key: 123 });
    expectError(res, 400, "invalid_request");
    expect(res.body.issues).toEqual({ idempotency_key: [expect.stringMatching(/string/i)] });
    expect(await projectCount(s.orgId)).toBe(1);
  });

  it("a key of 200 characters is fine; 201 → 400 (header and body)", async () => {
    const s = await fresh();
    expect((await post(s, { name: "Long ok" }, "k".repeat(200))).status).toBe(200);
    const header = await post(s, { name: "Too long" }, "k".repeat(201));
    expectError(header, 400, "invalid_request");
    expect(header.body.issues).toEqual({ idempotency_key: [expect.stringContaining("200")] });
    const body = await post(s, { name: "Too long", idempotency_key: "k".repeat(201) });
    expectError(body, 400, "invalid_request");
    expect(body.body.issues).toEqual({ idempotency_key: [expect.stringContaining("200")] });
    // 200 characters in the body form is fine too.
    expect((await post(s, { name: "Long body ok", idempotency_key: "b".repeat(200) })).status).toBe(200);
    expect(await projectCount(s.orgId)).toBe(3);
  });

  it("an empty body idempotency_key → 400", async () => {
    const s = await fresh();
    const res = await post(s, { name: "Empty", idempotency_key: "" });
    expectError(res, 400, "invalid_request");
    expect(res.body.issues).toEqual({ idempotency_key: [expect.stringContaining("1 to 200")] });
  });

  it("keys are scoped per project: another project's same key is independent", async () => {
    const a = await fresh();
    const b = await fresh();
    const key = newKey();
    const ra = await post(a, { name: "Scoped" }, key);
    const rb = await post(b, { name: "Scoped" }, key);
    expect(rb.headers.get("idempotent-replayed")).toBeNull();
    expect(rb.body.id).not.toBe(ra.body.id);
    const other = await post(b, { name: "Other body" }, newKey());
    expect(other.status).toBe(200);
    expect(await projectCount(a.orgId)).toBe(2);
    expect(await projectCount(b.orgId)).toBe(3);
  });

  it("keys are scoped per path: the same key on rotate-webhook-secret is a separate request", async () => {
    const s = await fresh();
    const key = newKey();
    const created = await post(s, { name: "Path scoped" }, key);
    const rotated = await app.call("POST", `/projects/${s.projectId}/rotate-webhook-secret`, { key: s.key, headers: { "Idempotency-Key": key } });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get("idempotent-replayed")).toBeNull();
    expect(rotated.body.object).toBe("project_webhook_secret");
    expect(created.body.object).toBe("project");
  });

  it("a replayed rotation returns the same secret and does not rotate again", async () => {
    const s = await fresh();
    const key = newKey();
    const first = await app.call("POST", `/projects/${s.projectId}/rotate-webhook-secret`, { key: s.key, headers: { "Idempotency-Key": key } });
    const second = await app.call("POST", `/projects/${s.projectId}/rotate-webhook-secret`, { key: s.key, headers: { "Idempotency-Key": key } });
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    const current = await app.call("GET", `/projects/${s.projectId}`, { key: s.key });
    expect(current.body.webhook_secret).toBe(first.body.webhook_secret);
  });

  it("all the project's keys share the idempotency scope (scoped to the project, not the key)", async () => {
    const s = await fresh();
    const otherKey = await app.addKey(s, ["projects:write"]);
    const key = newKey();
    const first = await post(s, { name: "Shared" }, key);
    const second = await app.call("POST", "/projects", { key: otherKey, body: { name: "Shared" }, headers: { "Idempotency-Key": key } });
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.id).toBe(first.body.id);
  });

  it("a request that failed in the handler does not hold the key", async () => {
    const s = await fresh();
    const key = newKey();
    // Invalid custom secret: passes the schema, refused by the domain after the key was claimed.
    const failed = await post(s, { name: "Will fail", webhook_secret: "whsec_short" }, key);
    expectError(failed, 400, "invalid_request");
    const rows = await app.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.projectId, s.projectId), eq(idempotencyKeys.key, key)));
    expect(rows).toEqual([]);
    const retried = await post(s, { name: "Will work", webhook_secret: customWebhookSecret() }, key);
    expect(retried.status).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect(await projectCount(s.orgId)).toBe(2);
  });

  it("a request that failed validation does not hold the key either", async () => {
    const s = await fresh();
    const key = newKey();
    expectError(await post(s, { name: "" }, key), 400, "invalid_request");
    const ok = await post(s, { name: "Fixed" }, key);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("idempotent-replayed")).toBeNull();
  });

  it("a request refused for scope does not hold the key", async () => {
    const s = await fresh();
    const readOnly = await app.addKey(s, ["projects:read"]);
    const key = newKey();
    expectError(await app.call("POST", "/projects", { key: readOnly, body: { name: "Nope" }, headers: { "Idempotency-Key": key } }), 403, "insufficient_scope");
    const ok = await post(s, { name: "Different body, same key" }, key);
    expect(ok.status).toBe(200);
  });

  it("a 404 from the handler is not stored: the same key works once the request is fixed", async () => {
    const s = await fresh();
    const key = newKey();
    const missing = await app.call("POST", "/projects/proj_missing/rotate-webhook-secret", { key: s.key, headers: { "Idempotency-Key": key } });
    expectError(missing, 404, "not_found");
    const again = await app.call("POST", "/projects/proj_missing/rotate-webhook-secret", { key: s.key, headers: { "Idempotency-Key": key } });
    expectError(again, 404, "not_found");
    expect(again.headers.get("idempotent-replayed")).toBeNull();
  });

  it("the key is kept 24 h: replayed just before, reusable for a new request after", async () => {
    const s = await fresh();
    const key = newKey();
    const first = await post(s, { name: "Day one" }, key);
    app.clock.advance(24 * HOUR - 1000);
    const within = await post(s, { name: "Day one" }, key);
    expect(within.headers.get("idempotent-replayed")).toBe("true");
    expectError(await post(s, { name: "Day two" }, key), 409, "idempotency_key_reused");
    app.clock.advance(1000);
    const after = await post(s, { name: "Day two" }, key);
    expect(after.status).toBe(200);
    expect(after.headers.get("idempotent-replayed")).toBeNull();
    expect(after.body.id).not.toBe(first.body.id);
    expect(after.body.name).toBe("Day two");
    expect(await projectCount(s.orgId)).toBe(3);
  });

  it("a concurrent duplicate creates exactly one project (200 + replay, or 200 + 409 in progress)", async () => {
    for (let round = 0; round < 3; round++) {
      const s = await fresh();
      const key = newKey();
      const results = await Promise.all([post(s, { name: "Race" }, key), post(s, { name: "Race" }, key)]);
      const outcomes = results
        .map((r) => (r.status === 200 ? (r.headers.get("idempotent-replayed") ? "replay" : "created") : `${r.status}:${r.body.error}`))
        .sort();
      expect([
        ["created", "replay"],
        ["409:idempotency_key_in_progress", "created"],
      ]).toContainEqual(outcomes);
      const inProgress = results.find((r) => r.status === 409);
      if (inProgress) expect(inProgress.headers.get("retry-after")).toBe("1");
      expect(await projectCount(s.orgId)).toBe(2);
      // Afterwards the key replays the one created project.
      const after = await post(s, { name: "Race" }, key);
      expect(after.headers.get("idempotent-replayed")).toBe("true");
      expect(after.body.id).toBe(results.find((r) => r.status === 200)!.body.id);
    }
  });

  it("a concurrent request with a different body gets 409 (in progress or reused), one project", async () => {
    const s = await fresh();
    const key = newKey();
    const [a, b] = await Promise.all([post(s, { name: "Race A" }, key), post(s, { name: "Race B" }, key)]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const conflict = a.status === 409 ? a : b;
    expect(["idempotency_key_in_progress", "idempotency_key_reused"]).toContain(conflict.body.error);
    expect(await projectCount(s.orgId)).toBe(2);
  });

  it("a claim left by a request that died is taken over after its lease", async () => {
    const s = await fresh();
    const key = newKey();
    const now = app.clock.now();
    await app.db.insert(idempotencyKeys).values({
      id: `idem_dead_${counter}`,
      projectId: s.projectId,
      method: "POST",
      path: "/projects",
      key,
      requestHash: requestHashOf({ name: "Orphan" }),
      state: "in_progress",
      lockedUntil: new Date(now.getTime() + 60_000),
      createdAt: now,
      expiresAt: new Date(now.getTime() + 24 * HOUR),
    });
    expectError(await post(s, { name: "Orphan" }, key), 409, "idempotency_key_in_progress");
    app.clock.advance(61_000);
    const taken = await post(s, { name: "Orphan" }, key);
    expect(taken.status).toBe(200);
    expect(taken.headers.get("idempotent-replayed")).toBeNull();
    expect((await post(s, { name: "Orphan" }, key)).headers.get("idempotent-replayed")).toBe("true");
    expect(await projectCount(s.orgId)).toBe(2);
  });

  it("GET and PATCH ignore Idempotency-Key", async () => {
    const s = await fresh();
    const key = newKey();
    const a = await app.call("PATCH", `/projects/${s.projectId}`, { key: s.key, body: { name: "P1" }, headers: { "Idempotency-Key": key } });
    const b = await app.call("PATCH", `/projects/${s.projectId}`, { key: s.key, body: { name: "P2" }, headers: { "Idempotency-Key": key } });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.name).toBe("P2");
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    const g = await app.call("GET", "/projects", { key: s.key, headers: { "Idempotency-Key": "k".repeat(500) } });
    expect(g.status).toBe(200);
  });
});

describe("canonical hashing and key parsing (unit)", () => {
  it("canonical JSON sorts keys at every depth and drops undefined", () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[{"y":2,"z":1}]},"b":1}');
    expect(canonicalHash({ a: 1, b: 2 })).toBe(canonicalHash({ b: 2, a: 1 }));
    expect(canonicalHash({ a: [1, 2] })).not.toBe(canonicalHash({ a: [2, 1] }));
    expect(canonicalHash({ a: null })).not.toBe(canonicalHash({}));
  });

  it("the request hash ignores the body idempotency_key", () => {
    expect(requestHashOf({ name: "x", idempotency_key: "k" })).toBe(requestHashOf({ name: "x" }));
    expect(requestHashOf(undefined)).toBe(requestHashOf(null));
  });

  it("idempotencyKeyOf: header, body, both equal, both different", () => {
    expect(idempotencyKeyOf("h", { name: "x" })).toBe("h");
    expect(idempotencyKeyOf(null, { idempotency_key: "b" })).toBe("b");
    expect(idempotencyKeyOf("same", { idempotency_key: "same" })).toBe("same");
    expect(idempotencyKeyOf(null, undefined)).toBeNull();
    expect(() => idempotencyKeyOf("a", { idempotency_key: "b" })).toThrow(/differ/);
    expect(() => idempotencyKeyOf("x".repeat(201), undefined)).toThrow(/200/);
    expect(() => idempotencyKeyOf("", undefined)).toThrow(/200/);
  });
});

describe("stored responses at rest", () => {
  it("are sealed: the webhook_secret of a replayable create is not in the database in plain text", async () => {
    const seeded = await fresh();
    const key = newKey();
    const created = await post(seeded, { name: "Sealed" }, key);
    expect(created.status).toBe(200);
    const secret: string = created.body.webhook_secret;
    const [row] = await app.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.projectId, seeded.projectId), eq(idempotencyKeys.key, key)));
    expect(JSON.stringify(row!.responseBody)).not.toContain(secret);
    expect(JSON.stringify(row!.responseBody)).not.toContain("Sealed");
    const replay = await post(seeded, { name: "Sealed" }, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.webhook_secret).toBe(secret);
  });
});
