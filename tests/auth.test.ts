import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { apiKeys, projects } from "@/lib/db/schema";
import { apiRoutes } from "@/lib/api/registry";
import { revokeApiKey } from "@/lib/domain/keys";
import { createTestApp, type Seeded, type TestApp } from "./support/app";
import { concretePath, emptyBodyFor } from "./support/operations";
import { expectError, unknownSecretKey } from "./support/wire";

let app: TestApp;
let acme: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
});
afterAll(() => app?.close());

// Per-operation authentication and scopes (401, 403 insufficient_scope, reached with the scope) are
// generated from the routing table in tests/scopes.test.ts; this file covers how keys are read.

describe("Authorization header forms", () => {
  it("an empty Authorization header is a missing key", async () => {
    const res = await app.call("GET", "/identity", { headers: { authorization: "" } });
    expectError(res, 401, "missing_api_key");
  });

  it("a non-Bearer scheme is invalid_api_key", async () => {
    const res = await app.call("GET", "/identity", { headers: { authorization: `Basic ${acme.key}` } });
    expectError(res, 401, "invalid_api_key");
  });

  it("'Bearer' without a token is invalid_api_key", async () => {
    const res = await app.call("GET", "/identity", { headers: { authorization: "Bearer" } });
    expectError(res, 401, "invalid_api_key");
  });

  it("the Bearer scheme name is case-insensitive", async () => {
    const res = await app.call("GET", "/identity", { headers: { authorization: `bearer ${acme.key}` } });
    expect(res.status).toBe(200);
  });

  it("a secret key in x-svc-publishable-key is refused on a normal route", async () => {
    const res = await app.call("GET", "/identity", { publishableKey: acme.key });
    expectError(res, 401, "invalid_api_key");
  });

  it("an error message never echoes the key value", async () => {
    const bad = unknownSecretKey();
    const res = await app.call("GET", "/identity", { key: bad });
    expectError(res, 401, "invalid_api_key");
    expect(JSON.stringify(res.body)).not.toContain(bad);
  });
});

describe("revoked keys", () => {
  it("a key works until it is revoked, then answers 401 invalid_api_key everywhere", async () => {
    const seeded = await app.seed({ orgName: "Revoke Co" });
    expect((await app.call("GET", "/identity", { key: seeded.key })).status).toBe(200);
    await revokeApiKey(app.db, seeded.projectId, seeded.keyId, app.clock.now());
    for (const route of apiRoutes.filter((r) => r.auth !== "none")) {
      const res = await app.call(route.method, concretePath(route.path), { key: seeded.key, body: emptyBodyFor(route.method) });
      expect({ operation: route.operationId, status: res.status, error: res.body?.error }).toEqual({
        operation: route.operationId,
        status: 401,
        error: "invalid_api_key",
      });
    }
    // Valid writes on its own project are refused too.
    expectError(await app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { description: "touched" } }), 401, "invalid_api_key");
    expectError(await app.call("POST", "/projects", { key: seeded.key, body: { name: "From auth test" } }), 401, "invalid_api_key");
    // Nothing was changed through the revoked key.
    const [project] = await app.db.select().from(projects).where(eq(projects.id, seeded.projectId));
    expect(project!.description).toBeNull();
    const created = await app.db.select().from(projects).where(eq(projects.organizationId, seeded.orgId));
    expect(created).toHaveLength(1);
  });

  it("revoking one key leaves the project's other keys working", async () => {
    const seeded = await app.seed({ orgName: "Two Keys" });
    const second = await app.addKey(seeded, ["*"]);
    await revokeApiKey(app.db, seeded.projectId, seeded.keyId, app.clock.now());
    expect((await app.call("GET", "/identity", { key: seeded.key })).status).toBe(401);
    expect((await app.call("GET", "/identity", { key: second })).status).toBe(200);
  });
});

describe("scopes", () => {
  it("projects:read does not grant projects:write, and a refused write changes nothing", async () => {
    const seeded = await app.seed({ orgName: "Read Only", scopes: ["projects:read"] });
    const create = await app.call("POST", "/projects", { key: seeded.key, body: { name: "Sneaky" } });
    expectError(create, 403, "insufficient_scope");
    expect(create.body.required_scope).toBe("projects:write");
    const patch = await app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { name: "Sneaky" } });
    expectError(patch, 403, "insufficient_scope");
    const rotate = await app.call("POST", `/projects/${seeded.projectId}/rotate-webhook-secret`, { key: seeded.key });
    expectError(rotate, 403, "insufficient_scope");
    const rows = await app.db.select().from(projects).where(eq(projects.organizationId, seeded.orgId));
    expect(rows.map((r) => r.name)).toEqual(["Main"]);
  });

  it("projects:write does not grant projects:read", async () => {
    const key = await app.addKey(acme, ["projects:write"]);
    const res = await app.call("GET", `/projects/${acme.projectId}`, { key });
    expectError(res, 403, "insufficient_scope");
    expect(res.body.required_scope).toBe("projects:read");
  });

  it("a key with several scopes gets each of them and nothing else", async () => {
    const key = await app.addKey(acme, ["projects:read", "limits:read"]);
    expect((await app.call("GET", "/projects", { key })).status).toBe(200);
    expect((await app.call("GET", "/limits", { key })).status).toBe(200);
    const write = await app.call("PATCH", `/projects/${acme.projectId}`, { key, body: { name: "x" } });
    expectError(write, 403, "insufficient_scope");
  });

  it("the scope check runs before body validation (no schema leak to unscoped keys)", async () => {
    const key = await app.addKey(acme, ["limits:read"]);
    const res = await app.call("POST", "/projects", { key, body: { id: "proj_x" } });
    expectError(res, 403, "insufficient_scope");
  });
});

describe("key use bookkeeping", () => {
  it("records last_used_at at the request time", async () => {
    const seeded = await app.seed({ orgName: "Touch" });
    const [before] = await app.db.select().from(apiKeys).where(eq(apiKeys.id, seeded.keyId));
    expect(before!.lastUsedAt).toBeNull();
    await app.call("GET", "/identity", { key: seeded.key });
    const [after] = await app.db.select().from(apiKeys).where(eq(apiKeys.id, seeded.keyId));
    expect(after!.lastUsedAt?.toISOString()).toBe(app.clock.now().toISOString());
  });

  it("stores only a hash of the key, never the value", async () => {
    const seeded = await app.seed({ orgName: "Hash" });
    const [row] = await app.db.select().from(apiKeys).where(eq(apiKeys.id, seeded.keyId));
    expect(JSON.stringify(row)).not.toContain(seeded.key);
    expect(row!.keyHash).toMatch(/^[0-9a-f]{64}$/);
  });
});
