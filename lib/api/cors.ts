import { SvcError } from "@/lib/errors";
import type { AuthenticatedKey } from "@/lib/domain/keys";

/**
 * CORS for the operations a browser may call with a publishable key (auth "secret_or_publishable":
 * POST /registration-intents; docs/spec/decisions.md "Keys and scopes"). A preflight carries no key
 * (browsers never send custom headers in it), so it allows the method and headers for any origin; the
 * real request then knows its key and enforces the key's allowed origins (docs/api-decisions.md
 * "Registration intents"). Authorization is deliberately not an allowed header: secret keys stay out
 * of browsers.
 */
const ALLOWED_HEADERS = "content-type, x-svc-publishable-key, idempotency-key, svc-version";
const EXPOSED_HEADERS = "Request-Id, Svc-Version, Idempotent-Replayed, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After";
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** The answer headers that let the page at the request's origin read it; none without an Origin. */
export function corsHeadersFor(request: Request): Record<string, string> {
  const origin = request.headers.get("origin");
  if (!origin) return {};
  return { "Access-Control-Allow-Origin": origin, "Access-Control-Expose-Headers": EXPOSED_HEADERS, Vary: "Origin" };
}

/** 204 to an OPTIONS preflight on a path whose operations accept publishable keys. */
export function preflightResponse(request: Request, methods: readonly string[]): Response {
  return new Response(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": request.headers.get("origin") ?? "*",
      "Access-Control-Allow-Methods": [...methods, "OPTIONS"].join(", "),
      "Access-Control-Allow-Headers": ALLOWED_HEADERS,
      "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE_SECONDS),
      Vary: "Origin",
    },
  });
}

/**
 * A publishable key used from a browser page: the page's origin must be one the key allows (an empty
 * list allows any). Without an Origin header the caller is no browser, and an origin list could not
 * bind it anyway (any client can claim any origin), so it passes. A refusal takes the CORS headers back.
 */
export function enforceKeyOrigin(key: AuthenticatedKey, request: Request, headers: Record<string, string>): void {
  const origin = request.headers.get("origin");
  if (key.key.kind !== "publishable" || !origin) return;
  const allowed = key.key.allowedOrigins;
  if (allowed.length === 0 || allowed.includes(originOf(origin))) return;
  for (const name of Object.keys(corsHeadersFor(request))) delete headers[name];
  throw new SvcError(
    "origin_not_allowed",
    `The origin '${origin}' is not allowed for this publishable key. Add it to the key's allowed origins (dashboard, API keys) or use a key that allows it.`,
    { origin },
  );
}

/** As the dashboard stores allowed origins (scheme://host[:port], lower-case); "null" and odd values stay as sent. */
export function originOf(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return value;
  }
}
