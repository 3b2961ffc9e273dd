import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoutes, jsonRoutes } from "@/lib/api/registry";
import { upsertPlan } from "@/lib/domain/plans";
import { createTestApp, type Seeded, type TestApp } from "./support/app";
import { API_VERSION, expectError, expectHandlerHeaders, expectRateLimitHeaders } from "./support/wire";

let app: TestApp;
let acme: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed({ orgName: "Acme", projectName: "Main" });
});
afterAll(() => app?.close());

const yearMonth = (d: Date) => d.toISOString().slice(0, 7);

describe("GET /openapi.json", () => {
  let doc: any;
  beforeAll(async () => {
    const res = await app.call("GET", "/openapi.json");
    expect(res.status).toBe(200);
    doc = res.body;
  });

  it("needs no key, and still answers with handler headers and no rate-limit headers", async () => {
    const res = await app.call("GET", "/openapi.json");
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expect(res.headers.get("ratelimit-limit")).toBeNull();
  });

  it("ignores an invalid Authorization header (it is public)", async () => {
    const res = await app.call("GET", "/openapi.json", { key: "svc_live_garbage" });
    expect(res.status).toBe(200);
  });

  it("is OpenAPI 3.1.0 at version 2026-06-18, served under /api/v1", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe(API_VERSION);
    expect(doc.servers).toEqual([expect.objectContaining({ url: "/api/v1" })]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.securitySchemes.publishableKey).toMatchObject({ type: "apiKey", in: "header", name: "x-svc-publishable-key" });
    expect(doc.components.schemas.Error).toBeDefined();
  });

  it("has exactly the registered operations, each once, with unique operationIds", () => {
    const documented: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const method of ["get", "post", "patch", "put", "delete"]) {
        if (item[method]) documented.push(`${method.toUpperCase()} ${path}`);
      }
    }
    const registered = apiRoutes.map((r) => `${r.method} ${r.path}`);
    expect(documented.sort()).toEqual([...registered].sort());
    expect(registered).toEqual(
      expect.arrayContaining([
        "GET /openapi.json",
        "GET /identity",
        "GET /limits",
        "GET /projects",
        "POST /projects",
        "GET /projects/{id}",
        "PATCH /projects/{id}",
        "POST /projects/{id}/rotate-webhook-secret",
        "GET /media/{id}/content",
      ]),
    );
    const ids = apiRoutes.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  // The JSON operations; the byte-serving media download describes its own responses (lib/api/routes/media.ts).
  it.each(jsonRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))("%s documents scope, security and error responses", (_label, route) => {
    const op = doc.paths[route.path][route.method.toLowerCase()];
    expect(op.operationId).toBe(route.operationId);
    expect(op["x-svc-scope"]).toBe(route.scope);
    const statuses = Object.keys(op.responses).sort();
    expect(statuses).toContain("200");
    expect(statuses).toContain("400");
    expect(statuses).toContain("500");
    if (route.auth === "none") {
      expect(op.security).toEqual([]);
      expect(statuses).not.toContain("401");
    } else {
      expect(op.security).toEqual(expect.arrayContaining([{ bearerAuth: [] }]));
      expect(statuses).toEqual(expect.arrayContaining(["401", "429"]));
      expect(op.responses["200"].headers).toHaveProperty("RateLimit-Limit");
    }
    expect(op.responses["200"].headers).toHaveProperty("Svc-Version");
    expect(op.responses["200"].headers).toHaveProperty("Request-Id");
    if (route.scope) {
      expect(statuses).toContain("403");
      expect(op.description).toContain(route.scope);
    } else {
      expect(statuses).not.toContain("403");
    }
    const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    if (pathParams.length) {
      expect(statuses).toContain("404");
      for (const name of pathParams) {
        expect(op.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name, in: "path", required: true })]));
      }
    }
    if (route.idempotency !== "off") expect(statuses).toContain("409");
    for (const status of statuses.filter((s) => s !== "200")) {
      expect(op.responses[status].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
    }
  });

  it("documents the scopes of the project and meta operations", () => {
    expect(doc.paths["/projects"].get["x-svc-scope"]).toBe("projects:read");
    expect(doc.paths["/projects"].post["x-svc-scope"]).toBe("projects:write");
    expect(doc.paths["/projects/{id}"].patch["x-svc-scope"]).toBe("projects:write");
    expect(doc.paths["/projects/{id}/rotate-webhook-secret"].post["x-svc-scope"]).toBe("projects:write");
    expect(doc.paths["/limits"].get["x-svc-scope"]).toBe("limits:read");
    expect(doc.paths["/identity"].get["x-svc-scope"]).toBeNull();
    expect(doc.paths["/openapi.json"].get["x-svc-scope"]).toBeNull();
  });

  it("the list schema never has webhook_secret; the single-project schema does", () => {
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.ProjectSummary.properties)).not.toContain("webhook_secret");
    expect(Object.keys(schemas.Project.properties)).toContain("webhook_secret");
    expect(schemas.ProjectWebhookSecret.required).toEqual(expect.arrayContaining(["object", "project_id", "webhook_secret"]));
  });

  it("documents paging query parameters on GET /projects", () => {
    const params = doc.paths["/projects"].get.parameters.map((p: any) => `${p.in}:${p.name}`);
    expect(params).toEqual(expect.arrayContaining(["query:limit", "query:starting_after"]));
  });
});

describe("GET /identity", () => {
  it("describes the key's organization, project, key, plan and version", async () => {
    const res = await app.call("GET", "/identity", { key: acme.key });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expectRateLimitHeaders(res);
    expect(res.body).toEqual({
      object: "identity",
      organization: { id: acme.orgId, name: "Acme" },
      project: { id: acme.projectId, name: "Main" },
      api_key: { id: acme.keyId, name: "test", prefix: acme.key.slice(0, 12), display: expect.any(String), scopes: ["*"] },
      plan: "free",
      api_version: API_VERSION,
    });
  });

  it("prefix is the first 12 characters and display is svc_live_ab12…9xYz", async () => {
    const res = await app.call("GET", "/identity", { key: acme.key });
    const body = acme.key.slice("svc_live_".length);
    expect(res.body.api_key.prefix).toBe(acme.key.slice(0, 12));
    expect(res.body.api_key.prefix).toMatch(/^svc_live_[0-9A-Za-z]{3}$/);
    expect(res.body.api_key.display).toBe(`svc_live_${body.slice(0, 4)}…${body.slice(-4)}`);
    expect(res.body.api_key.display).toMatch(/^svc_live_[0-9A-Za-z]{4}…[0-9A-Za-z]{4}$/);
    expect(JSON.stringify(res.body)).not.toContain(acme.key);
  });

  it("works for a key with any scope and reports that key's own scopes", async () => {
    const key = await app.addKey(acme, ["projects:read", "limits:read"]);
    const res = await app.call("GET", "/identity", { key });
    expect(res.status).toBe(200);
    expect(res.body.api_key.scopes).toEqual(["limits:read", "projects:read"]);
    expect(res.body.api_key.prefix).toBe(key.slice(0, 12));
    expect(res.body.api_key.name).toBeNull();
    expect(res.body.api_key.id).not.toBe(acme.keyId);
  });

  it("another organization's key sees its own identity", async () => {
    const globex = await app.seed({ orgName: "Globex", projectName: "Other", planId: "pro" });
    const res = await app.call("GET", "/identity", { key: globex.key });
    expect(res.body.organization).toEqual({ id: globex.orgId, name: "Globex" });
    expect(res.body.project).toEqual({ id: globex.projectId, name: "Other" });
    expect(res.body.plan).toBe("pro");
  });

  it("401 without a key", async () => {
    expectError(await app.call("GET", "/identity"), 401, "missing_api_key");
  });
});

describe("GET /limits", () => {
  it("free plan: exactly 600/60 s and 100000 a month, period YYYY-MM", async () => {
    const res = await app.call("GET", "/limits", { key: acme.key });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expect(res.body).toEqual({
      object: "public_api_limits",
      rate_limit: { requests: 600, window_seconds: 60, scope: "api_key" },
      monthly_quota: { requests: 100000, scope: "api_key", period: yearMonth(app.clock.now()) },
    });
    expect(res.body.monthly_quota.period).toMatch(/^\d{4}-(0[1-9]|1[0-2])$/);
    expect(res.headers.get("ratelimit-limit")).toBe("600");
  });

  it("pro plan: 3000/60 s and 1000000 a month", async () => {
    const pro = await app.seed({ orgName: "Pro Co", planId: "pro" });
    const res = await app.call("GET", "/limits", { key: pro.key });
    expect(res.body).toEqual({
      object: "public_api_limits",
      rate_limit: { requests: 3000, window_seconds: 60, scope: "api_key" },
      monthly_quota: { requests: 1000000, scope: "api_key", period: yearMonth(app.clock.now()) },
    });
    expect(res.headers.get("ratelimit-limit")).toBe("3000");
  });

  it("a custom plan reports its own values", async () => {
    await upsertPlan(app.db, {
      id: "meta_custom",
      name: "Custom",
      requestsPerWindow: 42,
      windowSeconds: 10,
      monthlyRequests: 4242,
      mediaRetentionSeconds: 86400,
    });
    const custom = await app.seed({ orgName: "Custom Co", planId: "meta_custom" });
    const res = await app.call("GET", "/limits", { key: custom.key });
    expect(res.body.rate_limit).toEqual({ requests: 42, window_seconds: 10, scope: "api_key" });
    expect(res.body.monthly_quota.requests).toBe(4242);
  });

  it("the period follows the clock's calendar month (UTC)", async () => {
    const saved = app.clock.now();
    try {
      app.clock.set(Date.UTC(2026, 11, 31, 23, 59, 59));
      expect((await app.call("GET", "/limits", { key: acme.key })).body.monthly_quota.period).toBe("2026-12");
      app.clock.set(Date.UTC(2027, 0, 1, 0, 0, 0));
      expect((await app.call("GET", "/limits", { key: acme.key })).body.monthly_quota.period).toBe("2027-01");
    } finally {
      app.clock.set(saved);
    }
  });

  it("needs limits:read", async () => {
    const key = await app.addKey(acme, ["projects:read"]);
    const res = await app.call("GET", "/limits", { key });
    expectError(res, 403, "insufficient_scope");
    expect(res.body.required_scope).toBe("limits:read");
    expect((await app.call("GET", "/limits", { key: await app.addKey(acme, ["limits:read"]) })).status).toBe(200);
  });
});

describe("OpenAPI nullability of referenced schemas", () => {
  it("keeps null on nullable fields that point at a component", async () => {
    const { buildOpenApiDocument } = await import("@/lib/api/openapi");
    const doc = buildOpenApiDocument(apiRoutes) as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
    const nullRef = (name: string) => ({ anyOf: [{ $ref: `#/components/schemas/${name}` }, { type: "null" }] });
    expect(doc.components.schemas.Project!.properties.enrollment_channel).toEqual(nullRef("Channel"));
    expect(doc.components.schemas.Project!.properties.publish_readiness).toEqual(nullRef("PublishReadiness"));
    expect(doc.components.schemas.Channel!.properties.publish_readiness).toEqual(nullRef("PublishReadiness"));
    expect(doc.components.schemas.Contact!.properties.opt_in).toEqual(nullRef("OptInRecord"));
    expect(doc.components.schemas.Message!.properties.failure).toEqual(nullRef("MessageFailure"));
  });
});
