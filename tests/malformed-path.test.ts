import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import * as pageStaticInfo from "next/dist/build/analysis/get-page-static-info";
import { getMiddlewareRouteMatcher } from "next/dist/shared/lib/router/utils/middleware-route-matcher";
import { config, proxy } from "@/proxy";
import { REQUEST_ID } from "./support/wire";

// Next.js answers a plain-text 500 when a dynamic route's path does not percent-decode (it decodes the
// params before any handler runs). proxy.ts answers such a path itself, on every mount, without a
// rewrite (a rewrite can be proxied over HTTP to the same server: one more hop that can fail).
// scripts/faults/scenarios/hostile.ts drives the same paths through the production server.
const MALFORMED = [
  "/api/v1/messages/%E0%A4%A",
  "/api/v1/messages/%ED%A0%80",
  "/v1/messages/%E0%A4%A",
  "/api/v1/%",
  "/api/dashboard/projects/%E0",
  "/api/cli/%ZZ",
  "/api/providers/%ZZ/webhook",
  "/api/providers/platform-a/flows/%ZZ/endpoint",
  "/api/simulator/%ZZ",
  "/api/auth/%ZZ",
];

/** Next's own compilation of a proxy's matcher (exported by the module, not by its type declarations). */
const { getMiddlewareMatchers } = pageStaticInfo as unknown as {
  getMiddlewareMatchers: (matcher: unknown, nextConfig: object) => Parameters<typeof getMiddlewareRouteMatcher>[0];
};
/** Whether Next would run the proxy for this raw path: the matchers as the build compiles them. */
const runsProxy = getMiddlewareRouteMatcher(getMiddlewareMatchers(config.matcher, {}));

describe("API paths that are not valid percent-encoding (proxy.ts)", () => {
  it.each(MALFORMED)("%s reaches the proxy", (path) => {
    expect(runsProxy(path, new Request(`http://localhost${path}`) as never, {})).toBe(true);
  });

  it.each(MALFORMED.map((path) => [path, ["GET", "POST", "DELETE"][MALFORMED.indexOf(path) % 3]!]))(
    "%s (%s) → 400 invalid_request in the error shape, answered directly (no rewrite)",
    async (path, method) => {
      const response = proxy(new NextRequest(`http://localhost${path}?q=1`, { method }));
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toContain("application/json");
      expect(response.headers.get("x-middleware-rewrite")).toBeNull();
      expect(response.headers.get("x-middleware-next")).toBeNull();
      expect(response.headers.get("request-id")).toMatch(REQUEST_ID);
      const body = await response.json();
      expect(body).toMatchObject({ error: "invalid_request", issues: { path: [expect.any(String)] } });
      expect(body.message).toContain("percent-encoding");
    },
  );

  it("the API mounts answer with Svc-Version, like their handlers' errors", () => {
    expect(proxy(new NextRequest("http://localhost/api/v1/messages/%E0")).headers.get("svc-version")).toBe("2026-06-18");
    expect(proxy(new NextRequest("http://localhost/api/auth/%E0")).headers.get("svc-version")).toBeNull();
  });

  it("paths that decode, and pages, go on untouched", () => {
    for (const path of ["/api/v1/contacts/%2B1555", "/api/cli/device-codes", "/api/providers/platform-a/webhook", "/api/simulator/%2B1555/inbox"]) {
      expect(proxy(new NextRequest(`http://localhost${path}`)).headers.get("x-middleware-next")).toBe("1");
    }
    expect(runsProxy("/api/v1/contacts", new Request("http://localhost/api/v1/contacts") as never, {})).toBe(false);
    expect(runsProxy("/projects/%E0", new Request("http://localhost/projects/%E0") as never, {})).toBe(false);
  });
});
