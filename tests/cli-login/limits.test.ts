import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inArray } from "drizzle-orm";
import { cliDeviceCodes } from "@/lib/db/schema";
import { clientIp } from "@/lib/api/client-ip";
import { CREATE_LIMIT, GUESS_LIMIT, MAX_PENDING_CODES } from "@/lib/domain/cli-login";
import { newId } from "@/lib/ids";
import { peerHeaderName, stampEveryServersPeers, stampedPeer } from "@/lib/server/peer-address";
import { createTestApp, type TestApp } from "../support/app";
import { startTestServer, type TestServer } from "../support/http-server";
import { addOperator, dash } from "../dashboard/support";
import { startLogin } from "./support";

/**
 * The limits of `svc login` that a client cannot dodge and cannot turn on others: new codes are
 * counted per socket address (forwarding headers only from SVC_TRUSTED_PROXIES), pending codes are
 * capped for the whole installation, and an operator's lookups of unknown codes are limited.
 * The HTTP cases go over real sockets from distinct loopback addresses (127.0.0.x).
 */
const PROXY = "127.0.0.9";
let app: TestApp;
let server: TestServer;
beforeAll(async () => {
  app = await createTestApp({ settings: { trustedProxies: [PROXY, "10.0.0.0/8"] } });
  server = await startTestServer(() => app.runtime);
});
afterAll(async () => {
  await server?.close();
  await app?.close();
});

/** POST /api/cli/device-codes over a socket bound to `from`. */
function createCode(from: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL(`${server.url}/api/cli/device-codes`);
  const payload = JSON.stringify({ client_host: "laptop" });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        localAddress: from,
        agent: false,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload), ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

describe("the client address (lib/api/client-ip.ts)", () => {
  const request = (headers: Record<string, string>) => new Request("http://svc.test/", { headers });
  const peer = (ip: string) => ({ [peerHeaderName()]: ip });

  it("is the socket's address; forwarding headers from an unnamed peer count for nothing", () => {
    expect(clientIp(request({ ...peer("203.0.113.5"), "x-forwarded-for": "198.51.100.1", "x-real-ip": "198.51.100.2" }), [])).toBe("203.0.113.5");
    expect(clientIp(request(peer("::ffff:203.0.113.6")), [])).toBe("203.0.113.6");
  });

  it("behind a named proxy: the right-most X-Forwarded-For hop that is not a named proxy; what the client put left of it never counts", () => {
    const trusted = ["10.0.0.0/8", "2001:db8:ffff::/48"];
    expect(clientIp(request({ ...peer("10.1.1.1"), "x-forwarded-for": "1.2.3.4, 203.0.113.7" }), trusted)).toBe("203.0.113.7");
    expect(clientIp(request({ ...peer("10.1.1.1"), "x-forwarded-for": "forged, 203.0.113.7, 10.2.2.2" }), trusted)).toBe("203.0.113.7");
    expect(clientIp(request({ ...peer("2001:db8:ffff::1"), "x-forwarded-for": "[2001:db8:1::5]:443" }), trusted)).toBe("2001:db8:1::5");
    expect(clientIp(request({ ...peer("10.1.1.1"), "x-real-ip": "203.0.113.8" }), trusted)).toBe("203.0.113.8");
    expect(clientIp(request({ ...peer("10.1.1.1"), "x-forwarded-for": "10.3.3.3, 10.2.2.2" }), trusted)).toBe("10.3.3.3");
    expect(clientIp(request({ ...peer("10.1.1.1"), "x-forwarded-for": "203.0.113.9, not-an-address" }), trusted)).toBeNull();
  });

  it("with the peer unknown: the headers only when proxies are named, else no address at all", () => {
    expect(clientIp(request({ "x-forwarded-for": "198.51.100.1", "x-real-ip": "198.51.100.2" }), [])).toBeNull();
    expect(clientIp(request({ "x-forwarded-for": "198.51.100.1, 10.0.0.2" }), ["10.0.0.0/8"])).toBe("198.51.100.1");
    // A client cannot send the stamp: its name is secret to this process.
    expect(clientIp(request({ "x-svc-peer": "198.51.100.3" }), [])).toBeNull();
  });

  it("a server we do not create (next start's) gets every request stamped with its socket's address, over any header the client sent", async () => {
    const restore = stampEveryServersPeers();
    const seen: (string | null)[] = [];
    const plain = http.createServer((req, res) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      seen.push(stampedPeer(headers));
      res.end();
    });
    try {
      await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
      const port = (plain.address() as { port: number }).port;
      await new Promise<void>((resolve, reject) =>
        http
          .get({ host: "127.0.0.1", port, localAddress: "127.0.0.8", agent: false, headers: { "x-forwarded-for": "198.51.100.9" } }, (res) => {
            res.resume();
            res.on("end", resolve);
          })
          .on("error", reject),
      );
    } finally {
      restore();
      await new Promise((resolve) => plain.close(resolve));
    }
    expect(seen).toEqual(["127.0.0.8"]);
  });

  it("ignores a SVC_TRUSTED_PROXIES entry that is no address or range", () => {
    expect(clientIp(request({ ...peer("10.1.1.1"), "x-forwarded-for": "203.0.113.7" }), ["nonsense", "10.0.0.0/99"])).toBe("10.1.1.1");
  });
});

describe("POST /api/cli/device-codes over real sockets", () => {
  it("a forged X-Forwarded-For on every request does not escape the per-address limit", async () => {
    const from = "127.0.0.3";
    for (let i = 0; i < CREATE_LIMIT.points; i++) {
      const res = await createCode(from, { "x-forwarded-for": `198.51.100.${i + 1}`, "x-real-ip": `192.0.2.${i + 1}` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const limited = await createCode(from, { "x-forwarded-for": "198.51.100.200" });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: "rate_limit" });
    const recorded = await app.db
      .select({ ip: cliDeviceCodes.requestIp })
      .from(cliDeviceCodes)
      .where(inArray(cliDeviceCodes.requestIp, [from, "198.51.100.1"]));
    expect(recorded.map((r) => r.ip)).toEqual(Array(CREATE_LIMIT.points).fill(from));
  });

  it("one noisy client does not block another", async () => {
    for (let i = 0; i < CREATE_LIMIT.points; i++) expect((await createCode("127.0.0.4")).status).toBe(200);
    expect((await createCode("127.0.0.4")).status).toBe(429);
    expect((await createCode("127.0.0.5")).status).toBe(200);
  });

  it("behind a named proxy each client has its own window, whatever the client adds to the header", async () => {
    for (let i = 0; i < CREATE_LIMIT.points; i++) {
      expect((await createCode(PROXY, { "x-forwarded-for": `forged-${i}, 198.51.100.77` })).status).toBe(200);
    }
    expect((await createCode(PROXY, { "x-forwarded-for": "anything, 198.51.100.77" })).status).toBe(429);
    expect((await createCode(PROXY, { "x-forwarded-for": "198.51.100.78" })).status).toBe(200);
  });
});

describe("the cap on pending codes", () => {
  it(`refuses a new code with 429 while ${MAX_PENDING_CODES} are pending, and takes new ones when they expire`, async () => {
    const now = app.clock.now();
    const ids: string[] = [];
    const rows = Array.from({ length: MAX_PENDING_CODES }, (_, i) => {
      const id = newId("deviceCode");
      ids.push(id);
      return {
        id,
        deviceCodeHash: `cap-${i}-${id}`,
        userCode: "BBBBBBBB",
        status: "PENDING" as const,
        clientHost: "filler",
        requestIp: null,
        expiresAt: new Date(now.getTime() + 60_000),
        createdAt: now,
      };
    });
    await app.db.insert(cliDeviceCodes).values(rows);
    try {
      const refused = await createCode("127.0.0.6");
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ error: "rate_limit" });
      expect(refused.body.message).toContain("waiting for confirmation");
      app.clock.advance(61_000);
      expect((await createCode("127.0.0.6")).status).toBe(200);
    } finally {
      await app.db.delete(cliDeviceCodes).where(inArray(cliDeviceCodes.id, ids));
    }
  });
});

describe("an operator's lookups of user codes", () => {
  it("unknown codes are limited per operator; then even a real code is refused (no oracle); another operator is unaffected", async () => {
    const seeded = await app.seed({ orgName: "Guessers" });
    const guesser = await addOperator(app, seeded, "developer");
    const colleague = await addOperator(app, seeded, "developer");
    const real = await startLogin(app);
    // Looking at a real code, again and again (the page refreshes it), is not guessing.
    for (let i = 0; i < GUESS_LIMIT.points + 5; i++) expect((await dash(app, "GET", `/cli/device-codes/${real.user_code}`, { as: guesser })).status).toBe(200);
    for (let i = 0; i < GUESS_LIMIT.points; i++) {
      const miss = await dash(app, "GET", `/cli/device-codes/ZZZZ-ZZ${"BCDFGHJKLMNP"[i]}Z`, { as: guesser });
      expect(miss.status).toBe(404);
    }
    const limited = await dash(app, "GET", "/cli/device-codes/ZZZZ-ZZZZ", { as: guesser });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: "rate_limit" });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await dash(app, "GET", `/cli/device-codes/${real.user_code}`, { as: guesser })).status).toBe(429);
    const deny = await dash(app, "POST", `/cli/device-codes/${real.user_code}/deny`, { as: guesser, body: {} });
    expect(deny.status).toBe(429);
    expect((await dash(app, "GET", `/cli/device-codes/${real.user_code}`, { as: colleague })).body).toMatchObject({ status: "pending" });
  });
});
