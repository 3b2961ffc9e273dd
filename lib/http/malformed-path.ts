import { API_VERSION } from "@/lib/config";
import { newId } from "@/lib/ids";

/** Every route-handler mount: /api/... and the /v1 short form. */
const API_PATH = /^\/(?:api|v1)(?=\/|$)/;
/** The mounts whose handlers' answers carry Svc-Version (lib/api/route.ts, lib/dashboard). */
const VERSIONED = /^\/(?:api\/v1|v1|api\/dashboard)(?=\/|$)/;

/**
 * Next.js decodes a dynamic route's params before any handler runs; a path that is not valid
 * percent-encoding (`%ZZ`, `%E0%A4%A`, an encoded lone surrogate `%ED%A0%80`, a bare `%`) throws
 * there and Next answers a plain-text 500 of its own. The proxy answers such a request itself, on
 * every API mount, as the malformed input it is: 400 `invalid_request` in the error shape
 * (docs/api-decisions.md "Request limits"). No rewrite: a rewrite may be proxied over HTTP back to the
 * same server, one more hop that can fail under load.
 * Returns null when the path decodes (the request goes on untouched) or is not an API path.
 */
export function malformedPathAnswer(rawPathname: string): Response | null {
  if (!API_PATH.test(rawPathname) || decodes(rawPathname)) return null;
  const segment = rawPathname.split("/").find((s) => !decodes(s)) ?? rawPathname;
  const headers = new Headers({ "cache-control": "no-store", "request-id": newId("request") });
  if (VERSIONED.test(rawPathname)) headers.set("svc-version", API_VERSION);
  const shown = segment.length > 80 ? `${segment.slice(0, 80)}…` : segment;
  return Response.json(
    {
      error: "invalid_request",
      message: `The request path is not valid percent-encoding (segment "${shown}"). Encode each path segment with encodeURIComponent; a literal '%' is %25.`,
      issues: { path: ["Not valid percent-encoding."] },
    },
    { status: 400, headers },
  );
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}
