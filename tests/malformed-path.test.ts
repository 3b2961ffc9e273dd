import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { malformedApiPathResponse } from "@/lib/http/malformed-path";
import { proxy } from "@/proxy";

// Next.js answers a plain-text 500 when a dynamic route's path does not percent-decode; the proxy
// answers first. e2e/api.spec.ts drives the same paths through the production server.
describe("API paths that are not valid percent-encoding (proxy.ts)", () => {
  for (const path of ["/api/v1/messages/%E0%A4%A", "/v1/messages/%ED%A0%80", "/api/v1/%", "/api/dashboard/projects/%zz"]) {
    it(`${path} → our JSON 404`, async () => {
      const response = proxy(new NextRequest(`http://localhost${path}`));
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toContain("application/json");
      expect(response.headers.get("request-id")).toMatch(/^req_/);
      // Like any unserved path: no Svc-Version (spec: 404 and 405 disambiguation).
      expect(response.headers.get("svc-version")).toBeNull();
      const body = (await response.json()) as { error: string; message: string };
      expect(body.error).toBe("not_found");
      expect(body.message).toContain("not valid percent-encoding");
    });
  }

  it("names the /v1 short form by its canonical mount", async () => {
    const body = (await malformedApiPathResponse("DELETE", "/v1/channels/%E0")!.json()) as { message: string };
    expect(body.message).toMatch(/^No endpoint DELETE \/api\/v1\/channels\/%E0 /);
  });

  it("lets paths that decode go on (valid escapes, other pages)", () => {
    expect(malformedApiPathResponse("GET", "/api/v1/contacts/%2B15551234567")).toBeNull();
    expect(malformedApiPathResponse("GET", "/projects/%E0")).toBeNull();
    const passed = proxy(new NextRequest("http://localhost/api/v1/contacts/%2B1555"));
    expect(passed.headers.get("x-middleware-next")).toBe("1");
  });
});
