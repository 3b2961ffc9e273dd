import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { defineRoute } from "@/lib/api/route";
import { z } from "@/lib/api/zod";
import { ERROR_STATUS } from "@/lib/api/error-status";
import { SvcError } from "@/lib/errors";
import { createTestApp, type Seeded, type TestApp } from "./support/app";
import { REQUEST_ID, expectError, expectHandlerHeaders } from "./support/wire";

let app: TestApp;
let acme: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
});
afterAll(() => app?.close());

/** Test-only routes run through the real wrapper (defineRoute), without being registered. */
const nested = defineRoute({
  method: "POST",
  path: "/test/nested/{id}",
  operationId: "testNested",
  summary: "test",
  tag: "Test",
  scope: null,
  audit: { exempt: "a test operation that writes nothing" },
  params: z.object({ id: z.string().regex(/^n_/) }),
  query: z.object({ mode: z.enum(["a", "b"]).optional() }),
  body: z
    .object({
      outer: z.object({ inner: z.number().int(), deep: z.object({ flag: z.boolean() }).strict() }).strict(),
      items: z.array(z.object({ id: z.string().min(1) })).max(3),
    })
    .strict(),
  response: z.object({ ok: z.literal(true) }),
  handler: async () => ({ ok: true as const }),
});

const boom = defineRoute({
  method: "GET",
  path: "/test/boom",
  operationId: "testBoom",
  summary: "test",
  tag: "Test",
  scope: null,
  response: z.object({ ok: z.literal(true) }),
  handler: async () => {
    throw new Error("kaboom: password=hunter2 at /srv/app/lib/secret.ts:42");
  },
});

const badShape = defineRoute({
  method: "GET",
  path: "/test/bad-shape",
  operationId: "testBadShape",
  summary: "test",
  tag: "Test",
  scope: null,
  response: z.object({ ok: z.literal(true) }),
  handler: async () => ({ ok: "nope" }) as never,
});

async function run(route: typeof nested, path: string, init: { method?: string; body?: unknown; params?: Record<string, string>; key?: string | null } = {}) {
  const headers = new Headers();
  if (init.key !== null) headers.set("authorization", `Bearer ${init.key ?? acme.key}`);
  const request = new Request(`http://svc.test/api/v1${path}`, {
    method: init.method ?? route.method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const response = await route.run(request, init.params ?? {}, app.runtime);
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe("invalid_request issues keyed by dotted path", () => {
  const valid = { outer: { inner: 1, deep: { flag: true } }, items: [{ id: "a" }] };

  it("a valid request passes", async () => {
    const res = await run(nested, "/test/nested/n_1", { body: valid, params: { id: "n_1" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });

  it("nested field errors are keyed outer.inner, outer.deep.flag, items.1.id", async () => {
    const res = await run(nested, "/test/nested/n_1", {
      params: { id: "n_1" },
      body: { outer: { inner: "one", deep: { flag: "yes" } }, items: [{ id: "a" }, { id: "" }] },
    });
    expectError(res, 400, "invalid_request");
    expectHandlerHeaders(res);
    expect(Object.keys(res.body.issues).sort()).toEqual(["items.1.id", "outer.deep.flag", "outer.inner"]);
    for (const messages of Object.values<string[]>(res.body.issues)) {
      expect(messages).toEqual([expect.any(String)]);
    }
  });

  it("unknown nested keys are keyed by their full path", async () => {
    const res = await run(nested, "/test/nested/n_1", {
      params: { id: "n_1" },
      body: { ...valid, outer: { ...valid.outer, deep: { flag: true, admin: true }, extra: 1 }, top: 1 },
    });
    expectError(res, 400, "invalid_request");
    expect(Object.keys(res.body.issues).sort()).toEqual(["outer.deep.admin", "outer.extra", "top"]);
    expect(res.body.issues.top).toEqual(["Unknown or read-only field."]);
  });

  it("array-level errors are keyed by the array's path", async () => {
    const res = await run(nested, "/test/nested/n_1", {
      params: { id: "n_1" },
      body: { ...valid, items: [{ id: "a" }, { id: "b" }, { id: "c" }, { id: "d" }] },
    });
    expectError(res, 400, "invalid_request");
    expect(Object.keys(res.body.issues)).toEqual(["items"]);
  });

  it("missing required nested objects are keyed by their path", async () => {
    const res = await run(nested, "/test/nested/n_1", { params: { id: "n_1" }, body: { outer: {}, items: [] } });
    expectError(res, 400, "invalid_request");
    expect(Object.keys(res.body.issues).sort()).toEqual(["outer.deep", "outer.inner"]);
  });

  it("path and query parameters are keyed by their name", async () => {
    const path = await run(nested, "/test/nested/x_1", { params: { id: "x_1" }, body: valid });
    expectError(path, 400, "invalid_request");
    expect(Object.keys(path.body.issues)).toEqual(["id"]);
    const query = await run(nested, "/test/nested/n_1?mode=c", { params: { id: "n_1" }, body: valid });
    expectError(query, 400, "invalid_request");
    expect(Object.keys(query.body.issues)).toEqual(["mode"]);
  });

  it("invalid_json on a broken body, before any schema check", async () => {
    const headers = new Headers({ authorization: `Bearer ${acme.key}` });
    const response = await nested.run(
      new Request("http://svc.test/api/v1/test/nested/n_1", { method: "POST", headers, body: '{"outer": {' }),
      { id: "n_1" },
      app.runtime,
    );
    const body = await response.json();
    expect(response.status).toBe(400);
    expect(body.error).toBe("invalid_json");
    expect(body).not.toHaveProperty("issues");
  });
});

describe("500 internal_error", () => {
  it("an unexpected error is a 500 with request_id equal to Request-Id, and no stack or internals", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await run(boom, "/test/boom");
      expectError(res, 500, "internal_error");
      expectHandlerHeaders(res);
      expect(res.body.request_id).toMatch(REQUEST_ID);
      expect(res.body.request_id).toBe(res.headers.get("request-id"));
      expect(Object.keys(res.body).sort()).toEqual(["error", "message", "request_id"]);
      const text = JSON.stringify(res.body);
      for (const leak of ["kaboom", "hunter2", "secret.ts", "at ", "stack"]) expect(text).not.toContain(leak);
      // The full error goes to the server log, tagged with the same request id.
      expect(logged).toHaveBeenCalledWith(expect.stringContaining(res.body.request_id), expect.any(Error));
    } finally {
      logged.mockRestore();
    }
  });

  it("a database failure on a real endpoint is a 500 internal_error with request_id", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const select = vi.spyOn(app.db, "select").mockImplementationOnce(() => {
      throw new Error("connection refused 10.0.0.5:5432");
    });
    try {
      // GET /channels reads through the query builder after authentication (the key lookup itself
      // is a prepared query, built before this mock).
      const res = await app.call("GET", "/channels", { key: acme.key });
      expectError(res, 500, "internal_error");
      expectHandlerHeaders(res);
      expect(res.body.request_id).toBe(res.headers.get("request-id"));
      expect(JSON.stringify(res.body)).not.toContain("10.0.0.5");
    } finally {
      select.mockRestore();
      logged.mockRestore();
    }
    // And the service recovers on the next request.
    expect((await app.call("GET", "/identity", { key: acme.key })).status).toBe(200);
  });

  it("a handler response that breaks its own schema is a 500 under test (responses are validated)", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await run(badShape as unknown as typeof nested, "/test/bad-shape");
      expectError(res, 500, "internal_error");
    } finally {
      logged.mockRestore();
    }
  });
});

describe("error model", () => {
  it("every error code maps to the status decisions.md gives it", () => {
    expect(ERROR_STATUS).toMatchObject({
      invalid_request: 400,
      invalid_json: 400,
      idempotency_key_required: 400,
      invalid_api_version: 400,
      missing_api_key: 401,
      invalid_api_key: 401,
      insufficient_scope: 403,
      not_found: 404,
      idempotency_key_reused: 409,
      idempotency_key_in_progress: 409,
      outside_messaging_window: 409,
      contact_opt_in_required: 409,
      template_not_approved: 409,
      ai_handoff_active: 409,
      channel_not_ready: 412,
      interactive_type_unsupported_on_channel: 422,
      media_unsupported_on_channel: 422,
      feature_unsupported_on_channel: 422,
      flow_not_sendable: 422,
      rate_limit: 429,
      monthly_quota_exceeded: 429,
      message_pair_rate_limit: 429,
      message_rate_limit_unavailable: 503,
      internal_error: 500,
    });
  });

  it("a SvcError's details and headers reach the wire; 5xx bodies get request_id", async () => {
    const unavailable = defineRoute({
      method: "GET",
      path: "/test/unavailable",
      operationId: "testUnavailable",
      summary: "test",
      tag: "Test",
      scope: null,
      response: z.object({ ok: z.literal(true) }),
      handler: async () => {
        throw new SvcError("message_rate_limit_unavailable", "Limiter down.", { queued: false, retryable: true, retry_after: 1 }, { "Retry-After": "1" });
      },
    });
    const res = await run(unavailable as unknown as typeof nested, "/test/unavailable");
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      error: "message_rate_limit_unavailable",
      message: "Limiter down.",
      queued: false,
      retryable: true,
      retry_after: 1,
      request_id: res.headers.get("request-id"),
    });
    expect(res.headers.get("retry-after")).toBe("1");
    expectHandlerHeaders(res);
  });

  it("4xx bodies carry no request_id (it is in the header)", async () => {
    const res = await app.call("GET", "/projects/proj_nope", { key: acme.key });
    expectError(res, 404, "not_found");
    expect(res.body).not.toHaveProperty("request_id");
    expect(Object.keys(res.body).sort()).toEqual(["error", "message"]);
  });
});
