import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createProviderPort } from "@/lib/ports/provider";
import type { ProviderPlatform } from "@/lib/ports/provider/types";
import { createSimulator, type Simulator } from "@/lib/simulator";
import { closeServer } from "@/lib/server/node-http";
import { serveSimulator, type RunningServer } from "../provider/http-helpers";

/**
 * A webhook our endpoint did not take is delivered again, later and later, as the provider does
 * (lib/simulator/delivery.ts), over real HTTP: a receiver that is not listening yet, then answers
 * 500, then 200. The customer's `POST /customer/messages` answers only once the endpoint took the
 * message; past its wait it says the simulator keeps retrying; after the last attempt it gives up.
 */
const SECRET = (platform: ProviderPlatform) => `retry-secret-${platform}`;
const SENDER = "106540352242999";

interface Hit {
  at: number;
  status: number;
  body: string;
}

/** A webhook endpoint that answers the scripted statuses in turn (then `otherwise`), noting when each request came. */
class ScriptedEndpoint {
  readonly hits: Hit[] = [];
  otherwise = 200;
  private server: http.Server | null = null;

  constructor(
    readonly port: number,
    private readonly script: number[] = [],
  ) {}

  listen(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const status = this.script.shift() ?? this.otherwise;
        this.hits.push({ at: Date.now(), status, body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(status, { "Content-Type": "text/plain" }).end(status === 200 ? "EVENT_RECEIVED" : "no");
      });
    });
    return new Promise((resolve) => this.server!.listen(this.port, "127.0.0.1", () => resolve()));
  }

  async close(): Promise<void> {
    if (this.server) await closeServer(this.server);
  }
}

/** A port nothing listens on (yet): connections to it are refused. */
async function unusedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await closeServer(probe);
  return port;
}

let simulator: Simulator | null = null;
let served: RunningServer | null = null;
let endpoint: ScriptedEndpoint | null = null;
let logs: string[] = [];

async function start(port: number, options: { delays: number[]; waitMs: number }): Promise<string> {
  simulator = createSimulator({
    callbackBaseUrl: `http://127.0.0.1:${port}`,
    appSecret: SECRET,
    statusDelaysMs: { sent: 10, delivered: 20, read: 30 },
    webhookRetryDelaysMs: options.delays,
    customerWaitMs: options.waitMs,
    log: (message) => logs.push(message),
  });
  served = await serveSimulator(simulator);
  return served.url;
}

async function customerSays(url: string, text: string, from = "15550009001") {
  const response = await fetch(`${url}/customer/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ platform: "PLATFORM_A", sender_id: SENDER, from, type: "text", text }),
  });
  return { status: response.status, answeredAt: Date.now(), json: (await response.json()) as Record<string, unknown> };
}

/** Each gap between consecutive hits is at least the schedule's delay after that attempt (attempt n waits delays[n-1]). */
function expectBackoff(hits: Hit[], firstAttempt: number, delays: number[]): void {
  for (let i = 1; i < hits.length; i++) {
    const gap = hits[i]!.at - hits[i - 1]!.at;
    expect(gap, `gap before attempt ${firstAttempt + i}`).toBeGreaterThanOrEqual(delays[firstAttempt + i - 2]! - 5);
  }
}

afterEach(async () => {
  simulator?.reset();
  await served?.close();
  await endpoint?.close();
  simulator = null;
  served = null;
  endpoint = null;
  logs = [];
});

describe("webhook retries with backoff", () => {
  it("delivers a customer's message to an endpoint that is down, then fails, then takes it, answering only then", async () => {
    const delays = [100, 200, 400, 800, 1600];
    const port = await unusedPort();
    const url = await start(port, { delays, waitMs: 10_000 });
    endpoint = new ScriptedEndpoint(port, [500, 500]);
    // The endpoint comes up while the first attempts are refused (a dev server still compiling).
    const upLater = new Promise<void>((resolve) => setTimeout(() => void endpoint!.listen().then(resolve), 250));
    const answer = await customerSays(url, "hello after the retries");
    await upLater;

    expect(answer.status).toBe(200);
    expect(endpoint.hits.map((h) => h.status)).toEqual([500, 500, 200]);
    const attempts = answer.json.attempts as number;
    // Refused while nothing listened, then the three the endpoint saw.
    expect(attempts).toBeGreaterThanOrEqual(4);
    expect(answer.json).toMatchObject({ delivered_status: 200, message_id: expect.stringMatching(/^wamid\./) });
    expect(endpoint.hits[2]!.body).toContain("hello after the retries");
    expect(answer.answeredAt).toBeGreaterThanOrEqual(endpoint.hits[2]!.at);
    // Later and later: each wait at least the schedule's, and each longer than the one before.
    expectBackoff(endpoint.hits, attempts - 2, delays);
    const gaps = [endpoint.hits[1]!.at - endpoint.hits[0]!.at, endpoint.hits[2]!.at - endpoint.hits[1]!.at];
    expect(gaps[1]).toBeGreaterThan(gaps[0]!);
  });

  it("gives up after the last attempt of the schedule, and says so", async () => {
    const delays = [50, 100, 200];
    const port = await unusedPort();
    endpoint = new ScriptedEndpoint(port);
    endpoint.otherwise = 500;
    await endpoint.listen();
    const url = await start(port, { delays, waitMs: 10_000 });

    const answer = await customerSays(url, "nobody home");
    expect(answer.status).toBe(502);
    expect(answer.json).toMatchObject({ delivered_status: 500, attempts: 4, retrying: false });
    expect(String((answer.json.error as { message: string }).message)).toContain("gave up");
    expectBackoff(endpoint.hits, 1, delays);
    await new Promise((r) => setTimeout(r, 500));
    expect(endpoint.hits).toHaveLength(4);
    expect(logs.some((line) => line.includes("gave up") && line.includes("after 4 attempts"))).toBe(true);
  });

  it("past its wait, answers that it keeps retrying, and delivers in the background once the endpoint takes it", async () => {
    const delays = [100, 200, 400, 800, 1600];
    const port = await unusedPort();
    endpoint = new ScriptedEndpoint(port);
    endpoint.otherwise = 503;
    await endpoint.listen();
    const url = await start(port, { delays, waitMs: 500 });

    const answer = await customerSays(url, "eventually");
    expect(answer.status).toBe(504);
    expect(answer.json).toMatchObject({ delivered_status: 503, retrying: true, next_attempt_at: expect.any(String) });
    expect(String((answer.json.error as { message: string }).message)).toMatch(/keeps retrying in the background.*do not send it again/);
    endpoint.otherwise = 200;
    const deadline = Date.now() + 5_000;
    while (!endpoint.hits.some((h) => h.status === 200) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(endpoint.hits.at(-1)).toMatchObject({ status: 200, body: expect.stringContaining("eventually") });
    expectBackoff(endpoint.hits, 1, delays);
  });

  it("answers a plain refusal (401) at once, without waiting out the schedule", async () => {
    const port = await unusedPort();
    endpoint = new ScriptedEndpoint(port);
    endpoint.otherwise = 401;
    await endpoint.listen();
    const url = await start(port, { delays: [1_000, 2_000], waitMs: 10_000 });

    const started = Date.now();
    const answer = await customerSays(url, "bad signature");
    expect(Date.now() - started).toBeLessThan(900);
    expect(answer.status).toBe(502);
    expect(answer.json).toMatchObject({ delivered_status: 401, attempts: 1, retrying: true });
    expect(String((answer.json.error as { message: string }).message)).toContain("refused the message (HTTP 401)");
  });

  it("status callbacks follow the same schedule: a refused one is sent again and the chain goes on", async () => {
    const delays = [100, 200, 400];
    const port = await unusedPort();
    endpoint = new ScriptedEndpoint(port);
    await endpoint.listen();
    const url = await start(port, { delays, waitMs: 5_000 });
    expect((await customerSays(url, "hi", "15550009002")).status).toBe(200);

    endpoint.otherwise = 500;
    const { platformMessageId } = await createProviderPort({ graphUrl: `${url}/graph` }).send(
      { platform: "PLATFORM_A", senderId: SENDER, accessToken: "EAAG-test" },
      "15550009002",
      { content: { kind: "text", text: "reply" } },
    );
    const statusHits = () => endpoint!.hits.filter((h) => h.body.includes(platformMessageId));
    while (statusHits().length < 2) await new Promise((r) => setTimeout(r, 20));
    endpoint.otherwise = 200;
    const deadline = Date.now() + 5_000;
    const taken = () => statusHits().filter((h) => h.status === 200);
    while (taken().length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));

    const statuses = taken().flatMap((h) =>
      (JSON.parse(h.body) as { entry: { changes: { value: { statuses: { status: string }[] } }[] }[] }).entry[0]!.changes[0]!.value.statuses.map(
        (s) => s.status,
      ),
    );
    expect(statuses).toEqual(["sent", "delivered", "read"]);
    // The first status was refused at least twice, then delivered after the backoff.
    const sentHits = statusHits().filter((h) => h.body.includes('"status":"sent"'));
    expect(sentHits.length).toBeGreaterThanOrEqual(3);
    expectBackoff(sentHits, 1, delays);
  });
});
