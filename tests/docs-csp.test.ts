import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { config, docsContentSecurityPolicy, proxy } from "@/proxy";

const directives = (policy: string) =>
  Object.fromEntries(
    policy
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );

describe("the API reference's Content-Security-Policy (proxy.ts)", () => {
  it("allows only this origin, scripts only with the nonce, and no inline style, eval or remote host", () => {
    const policy = directives(docsContentSecurityPolicy("bm9uY2U=", false));
    expect(policy["default-src"]).toEqual(["'self'"]);
    expect(policy["script-src"]).toEqual(["'self'", "'nonce-bm9uY2U='"]);
    expect(policy["style-src"]).toEqual(["'self'", "'nonce-bm9uY2U='"]);
    expect(policy["img-src"]).toEqual(["'self'", "data:"]);
    expect(policy["connect-src"]).toEqual(["'self'"]);
    expect(policy["object-src"]).toEqual(["'none'"]);
    expect(policy["frame-ancestors"]).toEqual(["'none'"]);
    const every = Object.values(policy).flat();
    expect(every.filter((v) => /unsafe|https?:|\*/.test(v))).toEqual([]);
  });

  it("answers /docs/api with the header, a fresh nonce per request, and hands the policy to Next.js for its scripts", () => {
    const first = proxy(new NextRequest("http://localhost/docs/api"));
    const second = proxy(new NextRequest("http://localhost/docs/api"));
    const header = first.headers.get("content-security-policy")!;
    expect(header).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}'/);
    expect(second.headers.get("content-security-policy")).not.toBe(header);
    // NextResponse.next({ request: { headers } }) forwards overridden request headers this way.
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(header);
  });

  it("runs for the docs pages, and for API paths only when they hold a '%'", () => {
    const runs = (url: string) => unstable_doesMiddlewareMatch({ config, url });
    expect(runs("/docs/api")).toBe(true);
    expect(runs("/docs")).toBe(true);
    expect(runs("/api/v1/messages/%E0%A4%A")).toBe(true);
    expect(runs("/v1/%")).toBe(true);
    expect(runs("/api/dashboard/projects/%ED%A0%80")).toBe(true);
    expect(runs("/api/v1/messages")).toBe(false);
    expect(runs("/v1/messages/msg_01")).toBe(false);
    expect(runs("/projects")).toBe(false);
  });
});
