/** The API mounts whose paths the router decodes segment by segment (lib/api/router.ts). */
const API_MOUNT = /^(?:\/api\/v1|\/v1|\/api\/dashboard)(?=\/|$)/;

/**
 * Next.js decodes a dynamic route's params before our handler runs; a path that is not valid
 * percent-encoding (`%E0%A4%A`, an encoded lone surrogate `%ED%A0%80`, a bare `%`) throws there and
 * Next answers a plain-text 500 of its own. The proxy runs before that decoding and hands the router
 * the same path with each undecodable segment's `%` escaped, so the segment decodes to its literal
 * text: `/v1/messages/%E0%A4%A` is then an ordinary lookup of a message with that (impossible) id,
 * answered by the handler like any unknown id (authentication first, then 404 with Svc-Version), and
 * `/v1/%` an unserved path (404 without Svc-Version).
 * The `/v1` short form is answered under its canonical `/api/v1` (what next.config's rewrite does).
 * Returns null when the path decodes (the request goes on untouched) or is not an API path.
 */
export function decodablePath(rawPathname: string): string | null {
  if (!API_MOUNT.test(rawPathname) || decodes(rawPathname)) return null;
  return rawPathname
    .split("/")
    .map((segment) => (decodes(segment) ? segment : segment.replaceAll("%", "%25")))
    .join("/")
    .replace(/^\/v1(?=\/|$)/, "/api/v1");
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}
