import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { apiKeys, projects } from "@/lib/db/schema";
import { revokeApiKey } from "@/lib/domain/keys";
import { createTestApp, type Seeded, type TestApp } from "./support/app";
import { expectError, expectHandlerHeaders, expectRateLimitHeaders, unknownSecretKey } from "./support/wire";

let app: TestApp;
let acme: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
});
afterAll(() => app?.close());

interface Endpoint {
  method: string;
  /** Path, with {id} standing for the key's own project. */
  path: string;
  scope: string | null;
  body?: unknown;
}

/** Every keyed /api/v1 operation and the scope it needs (decisions.md "Paths the spec leaves open"). */
const KEYED: Endpoint[] = [
  { method: "GET", path: "/identity", scope: null },
  { method: "GET", path: "/limits", scope: "limits:read" },
  { method: "GET", path: "/projects", scope: "projects:read" },
  { method: "POST", path: "/projects", scope: "projects:write", body: { name: "From auth test" } },
  { method: "GET", path: "/projects/{id}", scope: "projects:read" },
  { method: "PATCH", path: "/projects/{id}", scope: "projects:write", body: { description: "touched" } },
  { method: "POST", path: "/projects/{id}/rotate-webhook-secret", scope: "projects:write" },
];

const pathOf = (e: Endpoint) => e.path.replace("{id}", acme.projectId);
const label = (e: Endpoint) => `${e.method} ${e.path}`;

describe.each(KEYED.map((e) => [label(e), e] as const))("%s authentication", (_label, endpoint) => {
  it("401 missing_api_key without a key, with Svc-Version and Request-Id", async () => {
    const res = await app.call(endpoint.method, pathOf(endpoint), { body: endpoint.body });
    expectError(res, 401, "missing_api_key");
    expectHandlerHeaders(res);
  });

  it("401 invalid_api_key for an unknown key of the right shape", async () => {
    const res = await app.call(endpoint.method, pathOf(endpoint), { key: unknownSecretKey(), body: endpoint.body });
    expectError(res, 401, "invalid_api_key");
    expectHandlerHeaders(res);
  });

  it("401 invalid_api_key for a malformed key", async () => {
    const res = await app.call(endpoint.method, pathOf(endpoint), { key: "svc_live_tooShort", body: endpoint.body });
    expectError(res, 401, "invalid_api_key");
  });

  it("401 for a publishable key sent as Bearer, and for x-svc-publishable-key", async () => {
    const publishable = await app.addKey(acme, [], "publishable");
    expect(publishable).toMatch(/^svc_pub_[0-9A-Za-z]{32}$/);
    const asBearer = await app.call(endpoint.method, pathOf(endpoint), { key: publishable, body: endpoint.body });
    expectError(asBearer, 401, "invalid_api_key");
    expectHandlerHeaders(asBearer);
    const asHeader = await app.call(endpoint.method, pathOf(endpoint), { publishableKey: publishable, body: endpoint.body });
    expectError(asHeader, 401, "invalid_api_key");
    expectHandlerHeaders(asHeader);
  });

  if (endpoint.scope) {
    const scope = endpoint.scope;
    it(`403 insufficient_scope with required_scope '${scope}' for a key without it`, async () => {
      const other = scope === "limits:read" ? "projects:read" : "limits:read";
      const key = await app.addKey(acme, [other]);
      const res = await app.call(endpoint.method, pathOf(endpoint), { key, body: endpoint.body });
      expectError(res, 403, "insufficient_scope");
      expect(res.body.required_scope).toBe(scope);
      expectHandlerHeaders(res);
      expectRateLimitHeaders(res);
    });

    it(`200 for a key with exactly '${scope}'`, async () => {
      const key = await app.addKey(acme, [scope]);
      const res = await app.call(endpoint.method, pathOf(endpoint), { key, body: endpoint.body });
      expect(res.status).toBe(200);
      expectHandlerHeaders(res);
      expectRateLimitHeaders(res);
    });
  } else {
    it("200 for any valid key, whatever its scopes", async () => {
      const key = await app.addKey(acme, ["limits:read"]);
      const res = await app.call(endpoint.method, pathOf(endpoint), { key, body: endpoint.body });
      expect(res.status).toBe(200);
    });
  }

  it("200 for a `*` key", async () => {
    const res = await app.call(endpoint.method, pathOf(endpoint), { key: acme.key, body: endpoint.body });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expectRateLimitHeaders(res);
  });
});

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
    for (const endpoint of KEYED) {
      const res = await app.call(endpoint.method, endpoint.path.replace("{id}", seeded.projectId), { key: seeded.key, body: endpoint.body });
      expectError(res, 401, "invalid_api_key");
    }
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
