import { isIP } from "node:net";

/**
 * The caller's address as the first proxy saw it: the left-most X-Forwarded-For entry, else
 * X-Real-IP. The audit log's "from where", and the key of the CLI's per-address limit on new login
 * codes. Nothing is allowed by it: a client that forges the header mislabels its own entries, or
 * spreads its own code requests over more buckets (each code still needs an operator to approve it).
 */
export function clientIp(request: Request): string | null {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  const candidate = forwarded || request.headers.get("x-real-ip")?.trim();
  return candidate && isIP(candidate) ? candidate : null;
}
