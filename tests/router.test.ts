import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoutes } from "@/lib/api/registry";
import { createTestApp, type Seeded, type TestApp } from "./support/app";
import { API_VERSION, REQUEST_ID, expectError, expectHandlerHeaders } from "./support/wire";

let app: TestApp;
let acme: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
});
afterAll(() => app?.close());

describe("unserved paths and methods (spec: 404 and 405 disambiguation)", () => {
  it.each(["/nope", "/projects/x/nope", "/", "/projects/a/b/c", "/identityx", "/v1/projects"])("GET %s is a 404 without Svc-Version", async (path) => {
    const res = await app.call("GET", path, { key: acme.key });
    expect(res.status).toBe(404);
    expect(res.headers.get("svc-version")).toBeNull();
    expect(res.body.error).toBe("not_found");
    expect(res.headers.get("request-id")).toMatch(REQUEST_ID);
  });

  it("an unserved path answers 404 even without a key (no 401 for routes that do not exist)", async () => {
    const res = await app.call("GET", "/nope");
    expect(res.status).toBe(404);
    expect(res.headers.get("svc-version")).toBeNull();
  });

  it("DELETE /projects is a 405 without Svc-Version, with Allow", async () => {
    const res = await app.call("DELETE", "/projects", { key: acme.key });
    expect(res.status).toBe(405);
    expect(res.headers.get("svc-version")).toBeNull();
    expect(res.body.error).toBe("method_not_allowed");
    expect(res.headers.get("allow")!.split(", ").sort()).toEqual(["GET", "POST"]);
  });

  it.each([
    ["PUT", "/projects/{id}", ["GET", "PATCH"]],
    ["DELETE", "/projects/{id}", ["GET", "PATCH"]],
    ["GET", "/projects/{id}/rotate-webhook-secret", ["POST"]],
    ["POST", "/identity", ["GET"]],
    ["PATCH", "/limits", ["GET"]],
    ["POST", "/openapi.json", ["GET"]],
  ])("%s %s is a 405 with Allow: %j", async (method, path, allowed) => {
    const res = await app.call(method, path.replace("{id}", acme.projectId), { key: acme.key, body: method === "GET" ? undefined : {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("svc-version")).toBeNull();
    expect(res.headers.get("allow")!.split(", ").sort()).toEqual(allowed);
  });

  it("a 405 does not run the handler (nothing is changed)", async () => {
    const before = await app.call("GET", `/projects/${acme.projectId}`, { key: acme.key });
    await app.call("PUT", `/projects/${acme.projectId}`, { key: acme.key, body: { name: "Overwritten" } });
    const after = await app.call("GET", `/projects/${acme.projectId}`, { key: acme.key });
    expect(after.body).toEqual(before.body);
  });

  it("a handler's own 404 carries Svc-Version (a real not-found, not an unserved endpoint)", async () => {
    const res = await app.call("GET", "/projects/proj_does_not_exist", { key: acme.key });
    expectError(res, 404, "not_found");
    expectHandlerHeaders(res);
  });

  it("a trailing slash is served by the same handler", async () => {
    const res = await app.call("GET", "/projects/", { key: acme.key });
    expect(res.status).toBe(200);
    expect(res.body.object).toBe("list");
    expectHandlerHeaders(res);
  });

  it("path parameters are URL-decoded", async () => {
    const res = await app.call("GET", `/projects/${encodeURIComponent(acme.projectId)}`, { key: acme.key });
    expect(res.status).toBe(200);
    const weird = await app.call("GET", "/projects/a%2Fb", { key: acme.key });
    expectError(weird, 404, "not_found");
    expectHandlerHeaders(weird);
  });

  it("a malformed percent-encoding in a path parameter is a clean 404, not a crash", async () => {
    const res = await app.call("GET", "/projects/%E0%A4%A", { key: acme.key });
    expectError(res, 404, "not_found");
    expectHandlerHeaders(res);
  });

  it("every project and meta route is registered and reachable through the router", async () => {
    const mine = ["/openapi.json", "/identity", "/limits", "/projects", "/projects/{id}", "/projects/{id}/rotate-webhook-secret"];
    const routes = apiRoutes.filter((r) => mine.includes(r.path));
    expect(routes.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      [
        "GET /openapi.json",
        "GET /identity",
        "GET /limits",
        "GET /projects",
        "POST /projects",
        "GET /projects/{id}",
        "PATCH /projects/{id}",
        "POST /projects/{id}/rotate-webhook-secret",
      ].sort(),
    );
    for (const route of routes) {
      const path = route.path.replace("{id}", acme.projectId);
      const res = await app.call(route.method, path, {
        key: acme.key,
        body: route.method === "GET" ? undefined : route.path === "/projects" ? { name: "Reach" } : {},
      });
      expect({ op: route.operationId, status: res.status }).toEqual({ op: route.operationId, status: 200 });
      expectHandlerHeaders(res);
    }
  });
});

describe("Svc-Version and Request-Id on every handler response", () => {
  it.each([
    ["GET", "/openapi.json", false],
    ["GET", "/identity", true],
    ["GET", "/limits", true],
    ["GET", "/projects", true],
    ["GET", "/projects/{id}", true],
  ])("%s %s success", async (method, path, keyed) => {
    const res = await app.call(method, path.replace("{id}", acme.projectId), { key: keyed ? acme.key : undefined });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("on errors: 400, 401, 403, 404", async () => {
    const limitedKey = await app.addKey(acme, ["limits:read"]);
    const responses = [
      await app.call("POST", "/projects", { key: acme.key, body: { name: "" } }),
      await app.call("GET", "/identity"),
      await app.call("GET", "/projects", { key: limitedKey }),
      await app.call("GET", "/projects/proj_missing", { key: acme.key }),
    ];
    expect(responses.map((r) => r.status)).toEqual([400, 401, 403, 404]);
    for (const res of responses) expectHandlerHeaders(res);
  });

  it("Request-Id is unique per request", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await app.call("GET", "/identity", { key: acme.key })).headers.get("request-id")!);
    expect(ids.size).toBe(5);
  });
});

describe("Svc-Version request header", () => {
  it(`accepts ${API_VERSION}`, async () => {
    const res = await app.call("GET", "/identity", { key: acme.key, headers: { "Svc-Version": API_VERSION } });
    expect(res.status).toBe(200);
    expect(res.body.api_version).toBe(API_VERSION);
  });

  it.each(["2025-01-01", "2026-06-19", "latest", ""])("rejects %j with 400 invalid_api_version", async (version) => {
    const res = await app.call("GET", "/identity", { key: acme.key, headers: { "Svc-Version": version } });
    expectError(res, 400, "invalid_api_version");
    expectHandlerHeaders(res);
    expect(res.body.supported_versions).toEqual([API_VERSION]);
  });

  it("is checked first: an unsupported version is a 400 even without a key", async () => {
    const res = await app.call("GET", "/projects", { headers: { "Svc-Version": "2020-01-01" } });
    expectError(res, 400, "invalid_api_version");
  });

  it("applies to the public OpenAPI document too", async () => {
    const res = await app.call("GET", "/openapi.json", { headers: { "Svc-Version": "2020-01-01" } });
    expectError(res, 400, "invalid_api_version");
  });

  it("a write with an unsupported version changes nothing", async () => {
    const res = await app.call("PATCH", `/projects/${acme.projectId}`, {
      key: acme.key,
      headers: { "Svc-Version": "1999-01-01" },
      body: { name: "Versioned" },
    });
    expectError(res, 400, "invalid_api_version");
    const current = await app.call("GET", `/projects/${acme.projectId}`, { key: acme.key });
    expect(current.body.name).not.toBe("Versioned");
  });
});
