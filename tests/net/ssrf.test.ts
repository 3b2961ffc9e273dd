import type dns from "node:dns";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isForbiddenAddress } from "@/lib/ports/net/address-policy";
import { OutboundNetworkError, OutboundTimeoutError, SsrfError, assertPublicUrl, safeRequest, type LookupAll } from "@/lib/ports/net/safe-request";

// No network here, and none is ever attempted: names resolve through an injected lookup, and the only
// connections made are to a local server on 127.0.0.1.

/** A resolver that answers from a table and records what it was asked. */
function fakeLookup(table: Record<string, string[] | (() => string[])>) {
  const calls: string[] = [];
  const lookup: LookupAll = (hostname, _options, callback) => {
    calls.push(hostname);
    const entry = table[hostname];
    if (!entry) {
      const err: NodeJS.ErrnoException = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
        code: "ENOTFOUND",
      });
      setImmediate(() => callback(err, []));
      return;
    }
    const addresses: dns.LookupAddress[] = (typeof entry === "function" ? entry() : entry).map((address) => ({
      address,
      family: address.includes(":") ? 6 : 4,
    }));
    setImmediate(() => callback(null, addresses));
  };
  return { lookup, calls };
}

interface Hit {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let port: number;
let base: string;
const hits: Hit[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      hits.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      if (req.url === "/echo") {
        res.writeHead(201, { "content-type": "application/json", "x-test": "yes" });
        res.end(JSON.stringify({ got: body, host: req.headers.host }));
      } else if (req.url === "/redirect") {
        res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" });
        res.end("moved");
      } else if (req.url === "/big") {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        res.end(Buffer.alloc(10 * 1024, 0x61));
      } else if (req.url === "/hang") {
        // never answers
      } else {
        res.writeHead(200);
        res.end("ok");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

afterEach(() => {
  hits.length = 0;
});

const REQ = { timeoutMs: 2_000, maxResponseBytes: 4_096 };

describe("isForbiddenAddress", () => {
  const forbidden: Array<[string, string]> = [
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["::", "unspecified"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "carrierGradeNat"],
    ["100.127.255.255", "carrierGradeNat"],
    ["169.254.1.1", "linkLocal"],
    ["169.254.169.254", "metadata"],
    ["fe80::1", "linkLocal"],
    ["fe80::1%eth0", "linkLocal"],
    ["fc00::1", "uniqueLocal"],
    ["fd12:3456::1", "uniqueLocal"],
    ["fd00:ec2::254", "metadata"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["ff02::1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking"],
    ["192.0.0.8", "ietfProtocolAssignments"],
    ["192.0.2.1", "documentation"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.9", "documentation"],
    ["2001:db8::1", "reserved"],
    // IPv4 embedded in IPv6
    ["::ffff:127.0.0.1", "ipv4Mapped:loopback"],
    ["::ffff:7f00:1", "ipv4Mapped:loopback"],
    ["::ffff:169.254.169.254", "ipv4Mapped:metadata"],
    ["::ffff:10.0.0.1", "ipv4Mapped:private"],
    ["::ffff:0:7f00:1", "ipv4Translated:loopback"],
    ["::7f00:1", "ipv4Compatible:loopback"],
    ["::a00:1", "ipv4Compatible:private"],
    ["64:ff9b::127.0.0.1", "nat64:loopback"],
    ["64:ff9b::a9fe:a9fe", "nat64:metadata"],
    ["64:ff9b:1::1", "nat64LocalUse"],
    ["2002:7f00:1::", "6to4:loopback"],
    ["2002:c0a8:101::1", "6to4:private"],
    ["2001::1", "teredo"],
    ["fec0::1", "deprecatedSiteLocal"],
    ["::2:0:0:1", "notGlobalUnicast"],
    // Lenient IPv4 literal forms, read as the address they mean
    ["2130706433", "loopback"],
    ["0177.0.0.1", "loopback"],
    ["0x7f.1", "loopback"],
    ["0x7f000001", "loopback"],
    ["127.1", "loopback"],
    ["012.1", "private"],
    ["0xa9.0xfe.0xa9.0xfe", "metadata"],
    ["2852039166", "metadata"],
    ["0", "unspecified"],
    // Not an address at all: fail closed
    ["localhost", "invalid"],
    ["", "invalid"],
    ["1.2.3.256", "invalid"],
    ["08.0.0.1", "invalid"],
  ];
  it.each(forbidden)("%s is forbidden (%s)", (ip, reason) => {
    expect(isForbiddenAddress(ip)).toEqual({ forbidden: true, reason });
  });

  const allowed = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700::1111",
    "2a00:1450:4001:80b::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1",
    "134744072", // 8.8.8.8 as a decimal number
  ];
  it.each(allowed)("%s is allowed", (ip) => {
    expect(isForbiddenAddress(ip)).toEqual({ forbidden: false, reason: null });
  });
});

describe("safeRequest refuses private targets when allowPrivateNetwork is false", () => {
  const table: Array<[string, string]> = [
    ["http://127.0.0.1", "loopback"],
    ["http://10.0.0.1", "private"],
    ["http://169.254.169.254/latest/meta-data", "metadata"],
    ["http://[::1]", "loopback"],
    ["http://[::ffff:127.0.0.1]", "ipv4Mapped:loopback"],
    ["http://0.0.0.0", "unspecified"],
    ["http://2130706433", "loopback"],
    ["http://0177.0.0.1", "loopback"],
    ["http://0x7f.1", "loopback"],
    ["http://127.1", "loopback"],
    ["https://[fd00:ec2::254]/latest", "metadata"],
    ["https://192.168.0.10:8443/x", "private"],
  ];
  it.each(table)("%s → SsrfError(%s), resolver never asked", async (url, reason) => {
    const { lookup, calls } = fakeLookup({});
    const err = await safeRequest(url, { ...REQ, allowPrivateNetwork: false, lookup }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SsrfError);
    expect((err as SsrfError).reason).toBe(reason);
    expect(calls).toEqual([]);
  });

  it("http://localhost is refused: it resolves to loopback (real resolver, /etc/hosts)", async () => {
    const err = await safeRequest(`http://localhost:${port}/`, { ...REQ, allowPrivateNetwork: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SsrfError);
    expect((err as SsrfError).reason).toBe("loopback");
    expect(hits).toHaveLength(0);
  });

  it("the local server itself is refused and never reached", async () => {
    const err = await safeRequest(`${base}/echo`, { ...REQ, allowPrivateNetwork: false, body: "x" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SsrfError);
    expect(hits).toHaveLength(0);
  });

  it("a hostname resolving to a private address is refused at connect time", async () => {
    const { lookup, calls } = fakeLookup({ "internal.example.test": ["10.1.2.3"] });
    const err = await safeRequest("http://internal.example.test/hook", {
      ...REQ,
      allowPrivateNetwork: false,
      lookup,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SsrfError);
    expect(err).toMatchObject({ reason: "private", address: "10.1.2.3" });
    expect(calls).toEqual(["internal.example.test"]);
  });

  it("a hostname with a mix of public and loopback addresses is refused", async () => {
    const { lookup } = fakeLookup({ "mixed.example.test": ["93.184.216.34", "127.0.0.1"] });
    const err = await safeRequest(`http://mixed.example.test:${port}/echo`, {
      ...REQ,
      allowPrivateNetwork: false,
      lookup,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SsrfError);
    expect(err).toMatchObject({ reason: "loopback", address: "127.0.0.1" });
    expect(hits).toHaveLength(0);
  });

  it("DNS rebinding: public when saved, loopback at connect time → refused", async () => {
    let answers = 0;
    const { lookup, calls } = fakeLookup({
      "rebind.example.test": () => (answers++ === 0 ? ["93.184.216.34"] : ["127.0.0.1"]),
    });
    const url = `http://rebind.example.test:${port}/echo`;
    await expect(assertPublicUrl(url, false, { lookup })).resolves.toBeInstanceOf(URL);
    const err = await safeRequest(url, { ...REQ, allowPrivateNetwork: false, lookup }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SsrfError);
    expect((err as SsrfError).reason).toBe("loopback");
    expect(calls).toHaveLength(2);
    expect(hits).toHaveLength(0);
  });

  it("defaults to env().allowPrivateNetwork (SVC_ALLOW_PRIVATE_NETWORK)", async () => {
    const saved = process.env.SVC_ALLOW_PRIVATE_NETWORK;
    try {
      process.env.SVC_ALLOW_PRIVATE_NETWORK = "false";
      await expect(safeRequest(`${base}/echo`, REQ)).rejects.toBeInstanceOf(SsrfError);
      expect(hits).toHaveLength(0);
      process.env.SVC_ALLOW_PRIVATE_NETWORK = "true";
      await expect(safeRequest(`${base}/echo`, REQ)).resolves.toMatchObject({ status: 201 });
      expect(hits).toHaveLength(1);
    } finally {
      if (saved === undefined) delete process.env.SVC_ALLOW_PRIVATE_NETWORK;
      else process.env.SVC_ALLOW_PRIVATE_NETWORK = saved;
    }
  });
});

describe("URL rules (whatever allowPrivateNetwork says)", () => {
  const refused: Array<[string, string]> = [
    ["ftp://example.test/file", "unsupported_scheme"],
    ["file:///etc/passwd", "unsupported_scheme"],
    ["gopher://127.0.0.1:6379/_INFO", "unsupported_scheme"],
    ["data:text/plain,hi", "unsupported_scheme"],
    ["http://user:pass@example.test/hook", "credentials_in_url"],
    ["https://token@example.test/hook", "credentials_in_url"],
    ["not a url", "invalid_url"],
    ["/relative/path", "invalid_url"],
  ];
  it.each(refused)("%s → SsrfError(%s)", async (url, reason) => {
    for (const allowPrivateNetwork of [false, true]) {
      const err = await safeRequest(url, { ...REQ, allowPrivateNetwork }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SsrfError);
      expect((err as SsrfError).reason).toBe(reason);
      await expect(assertPublicUrl(url, allowPrivateNetwork)).rejects.toMatchObject({ reason });
    }
  });
});

describe("safeRequest with allowPrivateNetwork true (local server)", () => {
  it("POSTs and returns status, headers, body and duration", async () => {
    const res = await safeRequest(`${base}/echo`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-svc-event": "message.received" },
      body: '{"hello":"world"}',
      timeoutMs: 2_000,
      maxResponseBytes: 4_096,
      allowPrivateNetwork: true,
    });
    expect(res.status).toBe(201);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(res.headers["x-test"]).toBe("yes");
    expect(JSON.parse(res.body.toString())).toEqual({ got: '{"hello":"world"}', host: `127.0.0.1:${port}` });
    expect(res.truncated).toBe(false);
    expect(res.durationMs).toBeGreaterThan(0);
    expect(res.durationMs).toBeLessThan(2_000);
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ method: "POST", url: "/echo", body: '{"hello":"world"}' });
    expect(hits[0]!.headers["x-svc-event"]).toBe("message.received");
    expect(hits[0]!.headers["content-length"]).toBe("17");
  });

  it("defaults to GET without a body, keeps the query string", async () => {
    const res = await safeRequest(`${base}/plain?a=1&b=2`, { ...REQ, allowPrivateNetwork: true });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe("ok");
    expect(hits[0]).toMatchObject({ method: "GET", url: "/plain?a=1&b=2" });
  });

  it("connects to the address the (injected) resolver returned, with the name in Host", async () => {
    const { lookup, calls } = fakeLookup({ "hooks.customer.test": ["127.0.0.1"] });
    const res = await safeRequest(`http://hooks.customer.test:${port}/echo`, {
      ...REQ,
      body: "hi",
      allowPrivateNetwork: true,
      lookup,
    });
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body.toString())).toEqual({ got: "hi", host: `hooks.customer.test:${port}` });
    expect(calls).toEqual(["hooks.customer.test"]);
  });

  it("returns a redirect as is and does not follow it", async () => {
    const res = await safeRequest(`${base}/redirect`, { ...REQ, allowPrivateNetwork: true });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("http://169.254.169.254/latest/meta-data");
    expect(res.body.toString()).toBe("moved");
    expect(hits.map((h) => h.url)).toEqual(["/redirect"]);
  });

  it("gives up with OutboundTimeoutError when the server never answers", async () => {
    const started = performance.now();
    const err = await safeRequest(`${base}/hang`, {
      timeoutMs: 300,
      maxResponseBytes: 1_024,
      allowPrivateNetwork: true,
    }).catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(err).toBeInstanceOf(OutboundTimeoutError);
    expect((err as OutboundTimeoutError).timeoutMs).toBe(300);
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1_500); // generous: the machine is shared
  });

  it("reads the body up to maxResponseBytes and flags the truncation", async () => {
    const res = await safeRequest(`${base}/big`, {
      timeoutMs: 2_000,
      maxResponseBytes: 2_048,
      allowPrivateNetwork: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(2_048);
    expect(res.body.every((b) => b === 0x61)).toBe(true);
    expect(res.truncated).toBe(true);
  });

  it("a body exactly at the limit is not truncated", async () => {
    const res = await safeRequest(`${base}/plain`, {
      timeoutMs: 2_000,
      maxResponseBytes: 2,
      allowPrivateNetwork: true,
    });
    expect(res.body.toString()).toBe("ok");
    expect(res.truncated).toBe(false);
  });

  it("a refused connection is an OutboundNetworkError with code ECONNREFUSED", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await safeRequest(`http://127.0.0.1:${closedPort}/`, { ...REQ, allowPrivateNetwork: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundNetworkError);
    expect((err as OutboundNetworkError).code).toBe("ECONNREFUSED");
  });

  it("a name that does not resolve is an OutboundNetworkError with code ENOTFOUND", async () => {
    const { lookup } = fakeLookup({});
    for (const allowPrivateNetwork of [true, false]) {
      const err = await safeRequest("http://nowhere.example.test/", { ...REQ, allowPrivateNetwork, lookup }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OutboundNetworkError);
      expect((err as OutboundNetworkError).code).toBe("ENOTFOUND");
    }
  });
});

describe("assertPublicUrl", () => {
  it("accepts a URL whose name resolves only to public addresses, returning the parsed URL", async () => {
    const { lookup } = fakeLookup({
      "hooks.customer.test": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
    });
    const url = await assertPublicUrl("https://hooks.customer.test/svc?x=1", false, { lookup });
    expect(url.href).toBe("https://hooks.customer.test/svc?x=1");
  });

  it("accepts a public IP literal without resolving anything", async () => {
    const { lookup, calls } = fakeLookup({});
    await expect(assertPublicUrl("https://93.184.216.34/hook", false, { lookup })).resolves.toBeInstanceOf(URL);
    expect(calls).toEqual([]);
  });

  it("refuses private literals and names that resolve to private addresses", async () => {
    const { lookup } = fakeLookup({ "intranet.test": ["192.168.1.20"], "mixed.test": ["8.8.8.8", "fd00::1"] });
    await expect(assertPublicUrl("http://127.0.0.1:3000/", false, { lookup })).rejects.toMatchObject({
      reason: "loopback",
    });
    await expect(assertPublicUrl("http://[::ffff:a9fe:a9fe]/", false, { lookup })).rejects.toMatchObject({
      reason: "ipv4Mapped:metadata",
    });
    await expect(assertPublicUrl("http://intranet.test/", false, { lookup })).rejects.toBeInstanceOf(SsrfError);
    await expect(assertPublicUrl("http://mixed.test/", false, { lookup })).rejects.toMatchObject({
      reason: "uniqueLocal",
      address: "fd00::1",
    });
  });

  it("an unresolvable name is an OutboundNetworkError", async () => {
    const { lookup } = fakeLookup({});
    await expect(assertPublicUrl("http://nowhere.test/", false, { lookup })).rejects.toMatchObject({
      name: "OutboundNetworkError",
      code: "ENOTFOUND",
    });
  });

  it("with private networks allowed, checks only the URL rules (no resolution)", async () => {
    const { lookup, calls } = fakeLookup({});
    await expect(assertPublicUrl("http://127.0.0.1:3000/hook", true, { lookup })).resolves.toBeInstanceOf(URL);
    await expect(assertPublicUrl("http://intranet.test/", true, { lookup })).resolves.toBeInstanceOf(URL);
    expect(calls).toEqual([]);
  });
});
