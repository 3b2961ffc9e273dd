import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Endpoint } from "@/lib/api/endpoint";
import type { OperatorPrincipal } from "@/lib/api/principal";
import { apiRoutes } from "@/lib/api/registry";
import { createRouter } from "@/lib/api/router";
import { dashboardProjectRoutes } from "@/lib/dashboard/routes";
import { isScope, SCOPES } from "@/lib/shared/scopes";
import { DASHBOARD_SCOPES, projectAccessFor } from "@/lib/domain/members";
import { createTestApp, type CallResult, type Seeded, type TestApp } from "./support/app";
import { concretePath, emptyBodyFor } from "./support/operations";
import { expectError, expectHandlerHeaders, expectRateLimitHeaders, unknownSecretKey } from "./support/wire";
import { addOperator, dash, type Operator } from "./dashboard/support";

/**
 * Authentication and scopes of every operation, generated from the routing tables: an operation added
 * to lib/api/registry.ts (or to the dashboard's table) is covered here without touching this file.
 * Public operations are the ones whose definition says `auth: "none"`.
 */

let app: TestApp;
let acme: Seeded;
let owner: Operator;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
  owner = await addOperator(app, acme, "owner");
});
afterAll(() => app?.close());

const label = (route: Endpoint) => `${route.method} ${route.path}`;
const call = (route: Endpoint, options: { key?: string; publishableKey?: string } = {}) =>
  app.call(route.method, concretePath(route.path), { ...options, body: emptyBodyFor(route.method) });

/** Reached the operation: the key was accepted and its scope sufficed; the handler answered its own 2xx/4xx, never a 500. */
function expectReached(res: CallResult) {
  expect({ status: res.status, error: res.body?.error }).not.toMatchObject({ status: 401 });
  expect(res.status).not.toBe(403);
  expect(res.status).toBeLessThan(500);
}

const publicRoutes = apiRoutes.filter((route) => route.auth === "none");
const keyedRoutes = apiRoutes.filter((route) => route.auth !== "none");

describe.each(keyedRoutes.map((route) => [label(route), route] as const))("%s (API key)", (_label, route) => {
  it("401 missing_api_key without a key, with Svc-Version and Request-Id", async () => {
    const res = await call(route);
    expectError(res, 401, "missing_api_key");
    expectHandlerHeaders(res);
  });

  it("401 invalid_api_key for an unknown key of the right shape, and for a malformed one", async () => {
    const unknown = await call(route, { key: unknownSecretKey() });
    expectError(unknown, 401, "invalid_api_key");
    expectHandlerHeaders(unknown);
    expectError(await call(route, { key: "svc_live_tooShort" }), 401, "invalid_api_key");
  });

  it("401 for a publishable key sent as Bearer, and in x-svc-publishable-key unless the operation accepts one", async () => {
    const publishable = await app.addKey(acme, [], "publishable");
    expectError(await call(route, { key: publishable }), 401, "invalid_api_key");
    const asHeader = await call(route, { publishableKey: publishable });
    if (route.auth === "secret_or_publishable") expect(asHeader.status).not.toBe(401);
    else expectError(asHeader, 401, "invalid_api_key");
  });

  if (route.scope) {
    const scope = route.scope;
    it(`names a scope an API key can hold (${scope})`, () => {
      expect(isScope(scope)).toBe(true);
    });

    it(`403 insufficient_scope naming '${scope}' for a key holding every other scope`, async () => {
      const key = await app.addKey(
        acme,
        SCOPES.filter((s) => s !== scope),
      );
      const res = await call(route, { key });
      expectError(res, 403, "insufficient_scope");
      expect(res.body.required_scope).toBe(scope);
      expectHandlerHeaders(res);
      expectRateLimitHeaders(res);
    });

    it(`reached with a key holding only '${scope}'`, async () => {
      const res = await call(route, { key: await app.addKey(acme, [scope]) });
      expectReached(res);
      expectHandlerHeaders(res);
    });
  } else {
    it("reached with any valid key, whatever its one scope", async () => {
      expectReached(await call(route, { key: await app.addKey(acme, ["limits:read"]) }));
    });
  }

  it("reached with a `*` key, with rate-limit headers", async () => {
    const res = await call(route, { key: acme.key });
    expectReached(res);
    expectRateLimitHeaders(res);
  });
});

describe.each(publicRoutes.map((route) => [label(route), route] as const))("%s (public: auth none)", (_label, route) => {
  it("reads no API key: never a 401 or a scope refusal, with or without one, and no rate-limit headers", async () => {
    for (const key of [undefined, "svc_live_garbage", acme.key]) {
      const res = await call(route, { key });
      expect(res.status, `key ${key}`).not.toBe(401);
      expect(["missing_api_key", "invalid_api_key", "insufficient_scope"]).not.toContain(res.body?.error);
      expect(res.headers.get("ratelimit-limit")).toBeNull();
      expectHandlerHeaders(res);
    }
  });
});

/** The dashboard's project router, serving the same table as lib/dashboard/dispatch.ts. */
const dashboardProjects = createRouter(dashboardProjectRoutes, "/api/dashboard/projects/{id}");
const OPERATOR_SCOPES = [...SCOPES, ...DASHBOARD_SCOPES];

/**
 * An operator whose permissions are exactly `scopes`. Roles (lib/domain/members/roles.ts) never hold
 * "every permission but one", so the principal the dispatcher builds from a role is built here with
 * chosen scopes instead; access.test.ts covers what each real role may do.
 */
async function asOperator(route: Endpoint, scopes: readonly string[]): Promise<CallResult> {
  const access = (await projectAccessFor(app.db, owner.userId, acme.projectId))!;
  const principal: OperatorPrincipal = { ...access, user: { id: access.user.id, email: access.user.email, name: access.user.name }, scopes };
  const body = emptyBodyFor(route.method);
  const request = new Request(`http://svc.test/api/dashboard/projects/${acme.projectId}${concretePath(route.path)}`, {
    method: route.method,
    headers: body ? { "content-type": "application/json", host: "svc.test" } : { host: "svc.test" },
    body: body ? JSON.stringify(body) : undefined,
  });
  const response = await dashboardProjects(
    request,
    new URL(request.url).pathname.replace(`/api/dashboard/projects/${acme.projectId}`, ""),
    app.runtime,
    principal,
  );
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

describe.each(dashboardProjectRoutes.map((route) => [label(route), route] as const))("%s (dashboard, per project)", (_label, route) => {
  it("401 unauthenticated without a session", async () => {
    const res = await dash(app, route.method, `/projects/${acme.projectId}${concretePath(route.path)}`, { body: emptyBodyFor(route.method) });
    expectError(res, 401, "unauthenticated");
  });

  if (route.scope) {
    const scope = route.scope;
    it(`403 insufficient_scope naming '${scope}' for an operator holding every other permission`, async () => {
      const res = await asOperator(
        route,
        OPERATOR_SCOPES.filter((s) => s !== scope),
      );
      expectError(res, 403, "insufficient_scope");
      expect(res.body.required_scope).toBe(scope);
      expectHandlerHeaders(res);
    });

    it(`reached by an operator holding only '${scope}'`, async () => {
      expectReached(await asOperator(route, [scope]));
    });
  } else {
    it("reached by an operator holding no permission", async () => {
      expectReached(await asOperator(route, []));
    });
  }
});
