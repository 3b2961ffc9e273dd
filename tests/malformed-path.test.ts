import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { decodablePath } from "@/lib/http/malformed-path";
import { proxy } from "@/proxy";

// Next.js answers a plain-text 500 when a dynamic route's path does not percent-decode; the proxy
// rewrites such a path first. e2e/api.spec.ts drives the same paths through the production server.
describe("API paths that are not valid percent-encoding (proxy.ts)", () => {
  it("escapes the '%' of each segment that does not decode, and only those", () => {
    expect(decodablePath("/api/v1/messages/%E0%A4%A")).toBe("/api/v1/messages/%25E0%25A4%25A");
    expect(decodablePath("/api/v1/contacts/%2B1/%ED%A0%80")).toBe("/api/v1/contacts/%2B1/%25ED%25A0%2580");
    expect(decodablePath("/v1/%")).toBe("/api/v1/%25");
    expect(decodablePath("/api/dashboard/projects/%zz")).toBe("/api/dashboard/projects/%25zz");
  });

  it("leaves paths that decode, and pages, alone", () => {
    expect(decodablePath("/api/v1/contacts/%2B15551234567")).toBeNull();
    expect(decodablePath("/projects/%E0")).toBeNull();
    expect(decodablePath("/api/v1x/%E0")).toBeNull();
    const passed = proxy(new NextRequest("http://localhost/api/v1/contacts/%2B1555"));
    expect(passed.headers.get("x-middleware-next")).toBe("1");
  });

  it("rewrites the request, keeping its query", () => {
    const response = proxy(new NextRequest("http://localhost/v1/messages/%E0%A4%A?expand=media"));
    expect(response.headers.get("x-middleware-rewrite")).toBe("http://localhost/api/v1/messages/%25E0%25A4%25A?expand=media");
  });
});
