import { isIP } from "node:net";

/**
 * The caller's address as the first proxy saw it: the left-most X-Forwarded-For entry, else
 * X-Real-IP. Only informational (the audit log's "from where"): nothing is allowed or refused by it,
 * so a client that forges the header only mislabels its own entries.
 */
export function clientIp(request: Request): string | null {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  const candidate = forwarded || request.headers.get("x-real-ip")?.trim();
  return candidate && isIP(candidate) ? candidate : null;
}
