import { NextResponse, type NextRequest } from "next/server";
import { malformedPathAnswer } from "@/lib/http/malformed-path";

/**
 * A strict Content-Security-Policy for the API reference (/docs/...): nothing but this origin, and
 * scripts only from this origin or carrying this response's nonce. Next.js writes its page bootstrap
 * and RSC payload as inline <script> tags, so a fixed header (next.config.ts headers()) would have to
 * allow 'unsafe-inline' scripts; a per-request nonce is how Next.js supports a strict policy
 * (node_modules/next/dist/docs/01-app/02-guides/content-security-policy.md): it reads the nonce
 * from the request's Content-Security-Policy header and puts it on every script it renders.
 * The renderer (Swagger UI, swagger-ui-dist) needs no inline style, eval, font or image host: its stylesheet is
 * bundled by the app and served from 'self'; its icons are data: URIs inside that stylesheet.
 */
export function docsContentSecurityPolicy(nonce: string, dev = process.env.NODE_ENV === "development"): string {
  return [
    "default-src 'self'",
    // React's dev build evaluates code to rebuild server error stacks; production needs no eval.
    `script-src 'self' 'nonce-${nonce}'${dev ? " 'unsafe-eval'" : ""}`,
    // Dev mode injects the CSS as <style> tags (nonced); production serves it as <link> files.
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function proxy(request: NextRequest): Response {
  if (!request.nextUrl.pathname.startsWith("/docs")) return malformedPathAnswer(new URL(request.url).pathname) ?? NextResponse.next();
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const policy = docsContentSecurityPolicy(nonce);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  response.headers.set("X-Content-Type-Options", "nosniff");
  response.headers.set("Referrer-Policy", "no-referrer");
  return response;
}

export const config = {
  // Every API mount's paths reach the proxy only when they hold a '%' (a valid one passes straight
  // through), so ordinary API requests never pay for it.
  matcher: ["/docs", "/docs/:path*", "/api/:path(.*%.*)", "/v1/:path(.*%.*)"],
};
