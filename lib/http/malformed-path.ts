import { newId } from "@/lib/ids";

/** The API mounts whose unserved paths answer the router's JSON 404 (lib/api/router.ts). */
const API_MOUNT = /^(\/api\/v1|\/v1|\/api\/dashboard)(?=\/|$)/;

/**
 * Next.js decodes a dynamic route's params before our handler runs; a path that is not valid
 * percent-encoding (`%E0%A4%A`, an encoded lone surrogate `%ED%A0%80`, a bare `%`) throws there and
 * Next answers a plain-text 500 of its own. The proxy runs before that decoding, so it answers such
 * a path with the same JSON 404 an unserved path gets: no endpoint can match it.
 * Returns null for every path that decodes (the request goes on untouched).
 */
export function malformedApiPathResponse(method: string, rawPathname: string): Response | null {
  const mount = API_MOUNT.exec(rawPathname)?.[1];
  if (!mount || decodes(rawPathname)) return null;
  const rest = rawPathname.slice(mount.length) || "/";
  const shownMount = mount === "/v1" ? "/api/v1" : mount;
  return new Response(
    JSON.stringify({ error: "not_found", message: `No endpoint ${method} ${shownMount}${rest} is served by this build: the path is not valid percent-encoding.` }),
    { status: 404, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "Request-Id": newId("request") } },
  );
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
