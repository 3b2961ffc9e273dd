import { BlockList, isIP } from "node:net";
import { stampedPeer } from "@/lib/server/peer-address";

/**
 * The caller's address: the TCP peer (lib/server/peer-address.ts), unless that peer is a proxy named
 * in SVC_TRUSTED_PROXIES (README "Environment variables"); then X-Forwarded-For is read from the
 * right, skipping the named proxies, and the first other address is the client (X-Real-IP when the
 * proxy sends no X-Forwarded-For). Entries left of it are whatever the client claimed and never
 * count. With the peer unknown (a request that did not come through our servers), the headers are
 * read only when proxies are named; otherwise the address is unknown (null), so a forged header never
 * chooses it. The audit log's "from where", and the key of the CLI's per-address limit on login codes.
 */
export function clientIp(request: Request, trustedProxies: readonly string[]): string | null {
  const trusted = trustedList(trustedProxies);
  const peer = normalizeIp(stampedPeer(request.headers));
  if (peer && !isTrusted(trusted, peer)) return peer;
  if (!peer && trustedProxies.length === 0) return null;
  const forwarded = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (forwarded.length === 0) return normalizeIp(request.headers.get("x-real-ip")) ?? peer;
  for (let i = forwarded.length - 1; i >= 0; i--) {
    const hop = normalizeIp(forwarded[i]!);
    // A hop that is no address was written by the client (a proxy writes addresses): nothing left of it counts.
    if (!hop) return null;
    if (!isTrusted(trusted, hop)) return hop;
  }
  // Every hop is a named proxy: the request started at the left-most one.
  return normalizeIp(forwarded[0]!);
}

/** An address as servers print it: IPv4-mapped IPv6 as IPv4, brackets and an IPv4 port removed; null when it is none. */
function normalizeIp(raw: string | null | undefined): string | null {
  let text = raw?.trim() ?? "";
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(text);
  if (withPort) text = withPort[1]!;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(text);
  if (mapped) text = mapped[1]!;
  return isIP(text) ? text.toLowerCase() : null;
}

function isTrusted(list: BlockList, ip: string): boolean {
  return list.check(ip, isIP(ip) === 6 ? "ipv6" : "ipv4");
}

let cached: { key: string; list: BlockList } | null = null;

/** SVC_TRUSTED_PROXIES as a BlockList: addresses and CIDR ranges; an entry that is neither is ignored, with a warning. */
function trustedList(entries: readonly string[]): BlockList {
  const key = entries.join(",");
  if (cached?.key === key) return cached.list;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix, extra] = entry.trim().split("/");
    const ip = normalizeIp(address);
    const family = ip && isIP(ip) === 6 ? "ipv6" : "ipv4";
    const bits = prefix === undefined ? null : Number(prefix);
    if (!ip || extra !== undefined || (bits !== null && !(Number.isInteger(bits) && bits >= 0 && bits <= (family === "ipv6" ? 128 : 32)))) {
      console.warn(`[svc] SVC_TRUSTED_PROXIES: ignoring "${entry}" (not an address or a CIDR range)`);
      continue;
    }
    if (bits === null) list.addAddress(ip, family);
    else list.addSubnet(ip, bits, family);
  }
  cached = { key, list };
  return list;
}
