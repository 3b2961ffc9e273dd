import ipaddr from "ipaddr.js";

/**
 * Which IP addresses an outbound request (webhooks, media links, function fetches, data-exchange URLs)
 * may connect to when private networks are not allowed (docs/spec/decisions.md, "Webhook delivery").
 *
 * Deny by default: an IPv4 address must fall in ipaddr.js's `unicast` class, an IPv6 address must be
 * global unicast (2000::/3) and not in one of ipaddr.js's special ranges. IPv6 forms that embed an IPv4
 * address (IPv4-mapped ::ffff:0:0/96, IPv4-translated ::ffff:0:0:0/96, IPv4-compatible ::/96, NAT64
 * 64:ff9b::/96, 6to4 2002::/16) are judged by the IPv4 address they carry. Anything that does not parse
 * as an address is forbidden (fail closed).
 *
 * IPv4 literals are parsed leniently, the way inet_aton / the WHATWG URL parser read them, so
 * "2130706433", "0177.0.0.1", "0x7f.1" and "127.1" are all 127.0.0.1.
 */
export interface AddressVerdict {
  forbidden: boolean;
  /** Why it is forbidden (an ipaddr.js range name or one of ours, e.g. "loopback", "metadata",
   * "ipv4Mapped:private"); null when allowed. */
  reason: string | null;
}

const ALLOWED: AddressVerdict = { forbidden: false, reason: null };

function refuse(reason: string): AddressVerdict {
  return { forbidden: true, reason };
}

/** Cloud instance-metadata endpoints, named explicitly so logs say what was attempted. */
const METADATA_ADDRESSES = new Set([
  "169.254.169.254", // AWS, GCP, Azure, OpenStack, DigitalOcean...
  "169.254.170.2", // AWS ECS task metadata
  "100.100.100.200", // Alibaba Cloud
  "192.0.0.192", // Oracle Cloud
  "fd00:ec2::254", // AWS IPv6 (Nitro)
]);

/** IPv4 ranges ipaddr.js files under `reserved`, given a more telling name. */
const IPV4_NAMED_RESERVED: Array<[ipaddr.IPv4, number, string]> = [
  [ipaddr.IPv4.parse("198.18.0.0"), 15, "benchmarking"],
  [ipaddr.IPv4.parse("192.0.2.0"), 24, "documentation"],
  [ipaddr.IPv4.parse("198.51.100.0"), 24, "documentation"],
  [ipaddr.IPv4.parse("203.0.113.0"), 24, "documentation"],
  [ipaddr.IPv4.parse("192.0.0.0"), 24, "ietfProtocolAssignments"],
];

const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parse("2000::");

function classifyIPv4(addr: ipaddr.IPv4): AddressVerdict {
  if (METADATA_ADDRESSES.has(addr.toString())) return refuse("metadata");
  const range: string = addr.range();
  if (range === "unicast") return ALLOWED;
  if (range === "reserved") {
    for (const [net, bits, name] of IPV4_NAMED_RESERVED) {
      if (addr.match(net, bits)) return refuse(name);
    }
  }
  return refuse(range);
}

function ipv4FromWords(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([(high >> 8) & 0xff, high & 0xff, (low >> 8) & 0xff, low & 0xff]);
}

/** An IPv6 address that carries an IPv4 address is as forbidden as the IPv4 address. */
function judgeEmbedded(label: string, embedded: ipaddr.IPv4): AddressVerdict {
  const verdict = classifyIPv4(embedded);
  return verdict.forbidden ? refuse(`${label}:${verdict.reason}`) : ALLOWED;
}

function classifyIPv6(addr: ipaddr.IPv6): AddressVerdict {
  // Compare without the zone id (fe80::1%eth0).
  const p = addr.parts;
  if (METADATA_ADDRESSES.has(new ipaddr.IPv6(p).toString())) return refuse("metadata");
  const w = (i: number) => p[i] ?? 0;
  const range: string = addr.range();
  switch (range) {
    case "ipv4Mapped": // ::ffff:a.b.c.d
      return judgeEmbedded("ipv4Mapped", addr.toIPv4Address());
    case "rfc6145": // ::ffff:0:a.b.c.d (IPv4-translated)
      return judgeEmbedded("ipv4Translated", ipv4FromWords(w(6), w(7)));
    case "rfc6052":
      // 64:ff9b::/96 (well-known NAT64 prefix) carries the IPv4 address in its last 32 bits.
      if (w(0) === 0x64 && w(1) === 0xff9b && w(2) === 0 && w(3) === 0 && w(4) === 0 && w(5) === 0) {
        return judgeEmbedded("nat64", ipv4FromWords(w(6), w(7)));
      }
      // 64:ff9b:1::/48 is a local-use NAT64 prefix: the translator is on the local network.
      return refuse("nat64LocalUse");
    case "6to4": // 2002:AABB:CCDD::/48
      return judgeEmbedded("6to4", ipv4FromWords(w(1), w(2)));
    case "unicast":
      break;
    default:
      // unspecified, loopback, linkLocal, uniqueLocal, multicast, reserved, teredo, discard, ...
      return refuse(range);
  }
  // IPv4-compatible ::a.b.c.d (deprecated, ::/96); :: and ::1 were caught above.
  if (p.slice(0, 6).every((part) => part === 0)) {
    return judgeEmbedded("ipv4Compatible", ipv4FromWords(w(6), w(7)));
  }
  if (!addr.match(IPV6_GLOBAL_UNICAST, 3)) return refuse("notGlobalUnicast");
  return ALLOWED;
}

/**
 * Says whether an outbound connection to `ip` must be refused when private networks are not allowed.
 * Accepts IPv4 (including the lenient decimal / octal / hex / short forms), IPv6 (with or without
 * brackets or a zone id). A string that is not an IP address is forbidden with reason "invalid".
 */
export function isForbiddenAddress(ip: string): AddressVerdict {
  let text = ip.trim();
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(text);
  } catch {
    return refuse("invalid");
  }
  return addr.kind() === "ipv4" ? classifyIPv4(addr as ipaddr.IPv4) : classifyIPv6(addr as ipaddr.IPv6);
}
