import { execFileSync } from "node:child_process";
import http from "node:http";
import { expect, test, type APIResponse } from "./support/test";
import { API_VERSION, E2E_KEY, E2E_PORT } from "./env";

const auth = { Authorization: `Bearer ${E2E_KEY}` };
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

function expectHandlerHeaders(response: APIResponse) {
  const headers = response.headers();
  expect(headers["svc-version"]).toBe(API_VERSION);
  expect(headers["request-id"]).toMatch(/^req_[0-9a-z]{26}$/);
}

function expectRateLimitHeaders(response: APIResponse) {
  const headers = response.headers();
  expect(headers["ratelimit-limit"]).toBe("600");
  const remaining = Number(headers["ratelimit-remaining"]);
  expect(Number.isInteger(remaining) && remaining >= 0 && remaining < 600).toBe(true);
  const reset = Number(headers["ratelimit-reset"]);
  const now = Math.floor(Date.now() / 1000);
  expect(Number.isInteger(reset)).toBe(true);
  expect(reset).toBeGreaterThanOrEqual(now - 1);
  expect(reset).toBeLessThanOrEqual(now + 61);
}

/** The months a request made between `before` and now can be counted in (UTC, like the server). */
function monthsSince(before: Date): string[] {
  return [...new Set([before.toISOString().slice(0, 7), new Date().toISOString().slice(0, 7)])];
}

test.describe("GET /api/v1/limits", () => {
  test("with the bootstrap key: 200, the free plan's limits, version and rate-limit headers", async ({ request }) => {
    const before = new Date();
    const response = await request.get("/api/v1/limits", { headers: auth });
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/json");
    const body = await response.json();
    expect(body).toStrictEqual({
      object: "public_api_limits",
      rate_limit: { requests: 600, window_seconds: 60, scope: "api_key" },
      monthly_quota: { requests: 100000, scope: "api_key", period: expect.stringMatching(MONTH) },
    });
    expect(monthsSince(before)).toContain(body.monthly_quota.period);
    expectHandlerHeaders(response);
    expectRateLimitHeaders(response);
  });

  test("the same request over the wire with curl", async () => {
    let curl: string;
    try {
      execFileSync("curl", ["--version"], { stdio: "ignore" });
      curl = "curl";
    } catch {
      test.skip(true, "curl is not installed");
      return;
    }
    const baseURL = test.info().project.use.baseURL!;
    const raw = execFileSync(curl, ["-sS", "-i", "--max-time", "20", `${baseURL}/api/v1/limits`, "-H", `Authorization: Bearer ${E2E_KEY}`], {
      encoding: "utf8",
    });
    const split = raw.indexOf("\r\n\r\n");
    const head = raw.slice(0, split);
    const [statusLine, ...lines] = head.split("\r\n");
    expect(statusLine).toMatch(/^HTTP\/[\d.]+ 200\b/);
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
    expect(headers["svc-version"]).toBe(API_VERSION);
    expect(headers["request-id"]).toMatch(/^req_/);
    expect(headers["ratelimit-limit"]).toBe("600");
    expect(headers["ratelimit-remaining"]).toMatch(/^\d+$/);
    expect(headers["ratelimit-reset"]).toMatch(/^\d+$/);
    const body = JSON.parse(raw.slice(split + 4));
    expect(body.object).toBe("public_api_limits");
    expect(body.rate_limit).toStrictEqual({ requests: 600, window_seconds: 60, scope: "api_key" });
  });

  test("without a key: 401 missing_api_key, still a handler response (Svc-Version)", async ({ request }) => {
    const response = await request.get("/api/v1/limits");
    expect(response.status()).toBe(401);
    expect((await response.json()).error).toBe("missing_api_key");
    expectHandlerHeaders(response);
  });

  test("with an unknown key: 401 invalid_api_key", async ({ request }) => {
    const response = await request.get("/api/v1/limits", { headers: { Authorization: `Bearer svc_live_${"0".repeat(32)}` } });
    expect(response.status()).toBe(401);
    expect((await response.json()).error).toBe("invalid_api_key");
    expectHandlerHeaders(response);
  });
});

test.describe("connections", () => {
  // npm start (the Procfile's web line) keeps an idle connection open longer than a load balancer's
  // usual idle timeout (60 s): with Node's 5 s default, a balancer or client reusing a connection the
  // server was closing at that moment got a reset (the bench's cluster phase saw them under load).
  test("npm start announces a keep-alive timeout above 60 s and keeps the connection for the next request", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ keepAlive: string | undefined; reused: boolean }>((resolve, reject) => {
        const request = http.get({ host: "127.0.0.1", port: E2E_PORT, path: "/api/v1/limits", headers: auth, agent }, (response) => {
          response.resume();
          response.on("end", () => resolve({ keepAlive: response.headers["keep-alive"]?.toString(), reused: request.reusedSocket }));
        });
        request.on("error", reject);
      });
    try {
      const first = await get();
      expect(Number(/^timeout=(\d+)/.exec(first.keepAlive ?? "")?.[1])).toBeGreaterThan(60);
      expect(await get()).toEqual({ keepAlive: first.keepAlive, reused: true });
    } finally {
      agent.destroy();
    }
  });
});

test.describe("unserved paths and methods answer WITHOUT Svc-Version", () => {
  for (const withKey of [false, true]) {
    test(`GET /api/v1/nope → 404 (${withKey ? "with" : "without"} a key)`, async ({ request }) => {
      const response = await request.get("/api/v1/nope", { headers: withKey ? auth : {} });
      expect(response.status()).toBe(404);
      expect(response.headers()["svc-version"]).toBeUndefined();
      expect(response.headers()["request-id"]).toMatch(/^req_/);
      expect((await response.json()).error).toBe("not_found");
    });
  }

  test("DELETE /api/v1/projects → 405 with Allow", async ({ request }) => {
    const response = await request.delete("/api/v1/projects", { headers: auth });
    expect(response.status()).toBe(405);
    expect(response.headers()["svc-version"]).toBeUndefined();
    expect(response.headers()["allow"]).toBe("GET, POST");
    expect((await response.json()).error).toBe("method_not_allowed");
  });

  test("a handler's own 404 (unknown project id) DOES carry Svc-Version", async ({ request }) => {
    const response = await request.get("/api/v1/projects/proj_00000000000000000000000000", { headers: auth });
    expect(response.status()).toBe(404);
    expect((await response.json()).error).toBe("not_found");
    expectHandlerHeaders(response);
    expectRateLimitHeaders(response);
  });
});

test.describe("hostile paths and bodies on the production build answer our JSON, never a 500", () => {
  // A path that is not valid percent-encoding is malformed input on every mount: proxy.ts answers 400
  // invalid_request in the error shape before routing (no rewrite, no hop), with or without a key.
  for (const path of [
    "/api/v1/messages/%E0%A4%A",
    "/v1/messages/%E0%A4%A",
    "/api/v1/messages/%ED%A0%80",
    "/api/v1/%",
    "/api/cli/%ZZ",
    "/api/providers/%ZZ/webhook",
    "/api/providers/platform-a/flows/%ZZ/endpoint",
    "/api/simulator/%ZZ",
    "/api/auth/%ZZ",
  ]) {
    test(`GET ${path} → 400 invalid_request (JSON)`, async ({ request }) => {
      const response = await request.get(path, { headers: auth });
      expect(response.status()).toBe(400);
      expect(response.headers()["content-type"]).toContain("application/json");
      expect(await response.json()).toMatchObject({ error: "invalid_request" });
    });
  }

  test("GET /api/v1/messages/%E0%A4%A without a key → the same 400", async ({ request }) => {
    const response = await request.get("/api/v1/messages/%E0%A4%A");
    expect(response.status()).toBe(400);
    expect(response.headers()["svc-version"]).toBeTruthy();
  });

  for (const path of ["/api/dashboard/projects/%E0", "/api/v1/messages/msg_%00"]) {
    test(`GET ${path} → our JSON 4xx`, async ({ request }) => {
      const response = await request.get(path, { headers: auth });
      expect(response.status()).toBeGreaterThanOrEqual(400);
      expect(response.status()).toBeLessThan(500);
      expect(response.headers()["content-type"]).toContain("application/json");
    });
  }

  test("a 2 MiB body is refused with 413 payload_too_large", async ({ request }) => {
    const response = await request.post("/api/v1/messages", {
      headers: { ...auth, "content-type": "application/json" },
      data: JSON.stringify({ text: "x".repeat(2 * 1024 * 1024) }),
    });
    expect(response.status()).toBe(413);
    expect(await response.json()).toMatchObject({ error: "payload_too_large", max_bytes: 1048576 });
  });
});

test("/v1/identity (short form, rewrite) equals /api/v1/identity", async ({ request }) => {
  const long = await request.get("/api/v1/identity", { headers: auth });
  const short = await request.get("/v1/identity", { headers: auth });
  expect(long.status()).toBe(200);
  expect(short.status()).toBe(200);
  const body = await long.json();
  expect(await short.json()).toStrictEqual(body);
  expect(body).toMatchObject({
    object: "identity",
    api_version: API_VERSION,
    plan: "free",
    api_key: { prefix: E2E_KEY.slice(0, 12), scopes: ["*"] },
  });
  expect(body.project.id).toMatch(/^proj_/);
  expect(body.organization.id).toMatch(/^org_/);
  for (const response of [long, short]) {
    expectHandlerHeaders(response);
    expectRateLimitHeaders(response);
  }
  expect(short.headers()["request-id"]).not.toBe(long.headers()["request-id"]);
});

test("/api/v1/openapi.json is served without a key: OpenAPI 3.1.0", async ({ request }) => {
  const response = await request.get("/api/v1/openapi.json");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/json");
  expectHandlerHeaders(response);
  expect(response.headers()["ratelimit-limit"]).toBeUndefined();
  const doc = await response.json();
  expect(doc.openapi).toBe("3.1.0");
  expect(doc.info.version).toBe(API_VERSION);
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/openapi.json", "/identity", "/limits", "/projects", "/projects/{id}"]));
  expect(doc.paths["/limits"].get.operationId).toBe("getLimits");
  expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  // The short form serves the same document.
  const short = await request.get("/v1/openapi.json");
  expect(short.status()).toBe(200);
  expect(await short.json()).toStrictEqual(doc);
});
