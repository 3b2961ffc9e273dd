import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createProviderPort } from "@/lib/ports/provider";
import { isThroughputError, ProviderError, type ProviderChannel } from "@/lib/ports/provider/types";
import { createSimulator, type Simulator } from "@/lib/simulator";
import { serveSimulator, startReceiver, type Receiver, type RunningServer } from "../provider/http-helpers";

/**
 * The simulator's per-number throughput (lib/simulator/throughput.ts): 80 sends a second by default,
 * refused beyond with the provider's 130429 until the next window, settable through the control route,
 * reported as the number's throughput level, counted for tests and benchmarks. The clock is the
 * simulator's `now`, moved by the test; status callbacks are scheduled a minute out and cancelled.
 */
const SENDER = "106540352242922";
const OTHER = "106540352242923";
const AUTH = { Authorization: "Bearer EAAG-test" };
type Json = Record<string, unknown>;

let receiver: Receiver;
let simulator: Simulator;
let server: RunningServer;
let clockMs = Date.parse("2026-06-01T12:00:00.000Z");
let recipients = 0;

beforeAll(async () => {
  receiver = await startReceiver();
  simulator = createSimulator({
    callbackBaseUrl: receiver.url,
    appSecret: (platform) => `secret-${platform}`,
    statusDelaysMs: { sent: 60_000, delivered: 60_000, read: 60_000 },
    now: () => new Date(clockMs),
    log: () => {},
  });
  server = await serveSimulator(simulator);
});
afterEach(() => simulator.reset());
afterAll(async () => {
  simulator.reset();
  await server.close();
  await receiver.close();
});

async function sim(method: string, path: string, body?: unknown) {
  const init: RequestInit = { method, headers: { ...AUTH, ...(body === undefined ? {} : { "Content-Type": "application/json" }) } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await simulator.handle(new Request(`http://sim.test/api/simulator${path}`, init), path.split("?")[0]!);
  return { status: response.status, json: (await response.json()) as Json };
}

/** A template send (no 24 h window needed) to a fresh recipient (no 6 s pair pacing). */
function send(sender = SENDER) {
  const to = `1556${String(++recipients).padStart(6, "0")}7`;
  return sim("POST", `/graph/${sender}/messages`, {
    messaging_product: "whatsapp",
    to,
    type: "template",
    template: { name: "hello_world", language: { code: "en_US" } },
  });
}

async function sendMany(count: number, sender = SENDER) {
  const answers = [];
  for (let i = 0; i < count; i++) answers.push(await send(sender));
  return answers;
}

describe("per-number throughput", () => {
  it("accepts 80 sends in a second, refuses the 81st with 130429 in the provider's shape, and accepts again the next second", async () => {
    const first = await sendMany(80);
    expect(first.every((a) => a.status === 200)).toBe(true);
    clockMs += 999;
    const refused = await send();
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({
      error: {
        message: "(#130429) Rate limit hit",
        type: "OAuthException",
        code: 130429,
        error_data: { messaging_product: "whatsapp", details: "Cloud API message throughput has been reached." },
        fbtrace_id: expect.any(String),
      },
    });
    expect((await send(OTHER)).status).toBe(200); // another number has its own throughput
    clockMs += 1;
    expect((await send()).status).toBe(200);
    expect(simulator.state.throughputStats(SENDER)).toEqual({ messagesPerSecond: 80, level: "STANDARD", accepted: 81, refused: 1 });
    expect(simulator.state.throughputStats(OTHER)).toMatchObject({ accepted: 1, refused: 0 });
  });

  it("a refused send leaves no message and schedules nothing; reset() forgets the counts and the rate", async () => {
    await sendMany(80);
    const before = simulator.state.allSent().length;
    expect((await send()).status).toBe(400);
    expect(simulator.state.allSent()).toHaveLength(before);
    expect((await sim("POST", "/control/numbers/throughput", { phone_number_id: SENDER, messages_per_second: 5 })).status).toBe(200);
    simulator.reset();
    expect(simulator.state.throughputStats(SENDER)).toEqual({ messagesPerSecond: 80, level: "STANDARD", accepted: 0, refused: 0 });
    expect((await send()).status).toBe(200);
  });

  it("the control route sets the rate (1000: level HIGH), GET reads it with the counts, and the number's node reports the level", async () => {
    const level = async () => (await sim("GET", `/graph/${SENDER}?fields=status,throughput`)).json;
    expect(await level()).toEqual({ id: SENDER, status: "CONNECTED", throughput: { level: "STANDARD" } });

    const set = await sim("POST", "/control/numbers/throughput", { phone_number_id: SENDER, messages_per_second: 1000 });
    expect(set).toEqual({ status: 200, json: { phone_number_id: SENDER, messages_per_second: 1000, level: "HIGH" } });
    expect(await level()).toEqual({ id: SENDER, status: "CONNECTED", throughput: { level: "HIGH" } });
    const burst = await sendMany(1000);
    expect(burst.every((a) => a.status === 200)).toBe(true);
    expect((await send()).json.error).toMatchObject({ code: 130429 });

    await sim("POST", "/control/numbers/throughput", { phone_number_id: SENDER, messages_per_second: 3 });
    expect(await level()).toMatchObject({ throughput: { level: "STANDARD" } });
    clockMs += 1000;
    expect((await sendMany(4)).map((a) => a.status)).toEqual([200, 200, 200, 400]);
    expect(await sim("GET", `/control/numbers/throughput?phone_number_id=${SENDER}`)).toEqual({
      status: 200,
      json: { phone_number_id: SENDER, messages_per_second: 3, level: "STANDARD", accepted: 1003, refused: 2 },
    });
  });

  it("the control route refuses a missing number or a rate outside 1..10000, and other methods", async () => {
    for (const body of [
      { messages_per_second: 10 },
      { phone_number_id: SENDER },
      { phone_number_id: SENDER, messages_per_second: 0 },
      { phone_number_id: SENDER, messages_per_second: 1.5 },
      { phone_number_id: SENDER, messages_per_second: 10_001 },
    ]) {
      const answer = await sim("POST", "/control/numbers/throughput", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.error).toEqual({ message: expect.any(String) });
    }
    expect((await sim("GET", "/control/numbers/throughput")).status).toBe(400);
    expect((await sim("DELETE", "/control/numbers/throughput")).status).toBe(405);
    expect(((await sim("GET", "/")).json.routes as string[]).filter((r) => r.includes("/control/numbers/throughput"))).toHaveLength(2);
  });
});

describe("GET /control/numbers/sent", () => {
  it("counts the messages each customer got from one number, naming those who got more than one", async () => {
    const template = (to: string) => ({ messaging_product: "whatsapp", to, type: "template", template: { name: "hello_world", language: { code: "en_US" } } });
    const base = recipients;
    await sendMany(3);
    await send(OTHER);
    // The third customer again, past the 6 s pair pacing.
    const twice = `1556${String(base + 3).padStart(6, "0")}7`;
    clockMs += 7_000;
    expect((await sim("POST", `/graph/${SENDER}/messages`, template(twice))).status).toBe(200);
    const answer = await sim("GET", `/control/numbers/sent?phone_number_id=${SENDER}`);
    expect(answer).toEqual({
      status: 200,
      json: { phone_number_id: SENDER, accepted: 4, kept: 4, recipients: 3, repeated_count: 1, repeated: [{ to: twice, count: 2 }] },
    });
    expect((await sim("GET", "/control/numbers/sent")).status).toBe(400);
    expect((await sim("POST", `/control/numbers/sent?phone_number_id=${SENDER}`, {})).status).toBe(405);
  });
});

describe("the provider port over a throttled number", () => {
  it("throws a retryable ProviderError that isThroughputError recognises; other refusals are not one", async () => {
    await sim("POST", "/control/numbers/throughput", { phone_number_id: SENDER, messages_per_second: 1 });
    const port = createProviderPort({ graphUrl: `${server.url}/api/simulator/graph` });
    const channel: ProviderChannel = { platform: "PLATFORM_A", senderId: SENDER, accessToken: "EAAG-test" };
    const template = { content: { kind: "template" as const, template: { name: "hello_world", language: "en_US" } } };
    await port.send(channel, "15550001111", template);
    const error = await port.send(channel, "15550001112", template).catch((e: unknown) => e);
    expect(ProviderError.is(error)).toBe(true);
    expect(isThroughputError(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true, failure: { code: 130429, http_status: 400, message: "(#130429) Rate limit hit" } });

    clockMs += 1000;
    const undeliverable = await port.send(channel, "15550000000", template).catch((e: unknown) => e);
    expect(ProviderError.is(undeliverable) && undeliverable.failure.code).toBe(131026);
    expect(isThroughputError(undeliverable)).toBe(false);
    expect(isThroughputError(new Error("130429"))).toBe(false);
    expect(isThroughputError(null)).toBe(false);
  });
});
