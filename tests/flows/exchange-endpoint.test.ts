import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { flowDispatches, flows } from "@/lib/db/schema";
import { decryptFlowResponse, generateFlowKeyPair } from "@/lib/domain/flows/exchange/crypto";
import { handleFlowEndpoint, type FlowEndpointOptions } from "@/lib/domain/flows/exchange/endpoint";
import { servicesOf } from "@/lib/server/runtime";
import { createTestApp, type TestApp } from "../support/app";
import { startReceiver, type Receiver } from "../support/receiver";
import { providerRequest, seedChannelWithKeys, seedDispatch, seedExchange, type ExchangeSeed } from "./exchange-support";

const APP_SECRET = "test-platform-a-app-secret";

let app: TestApp;
let receiver: Receiver;
let seed: ExchangeSeed;
let logged: string[];

beforeAll(async () => {
  app = await createTestApp();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await app?.close();
});
beforeEach(async () => {
  // Standard Webhooks verifiers compare the signed timestamp with real time.
  app.clock.set(Date.now());
  receiver.received.length = 0;
  receiver.reply = () => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ screen: "DETAILS", data: { slot: "9:00" } }),
  });
  logged = [];
  seed = await seedExchange(app, `${receiver.url}/flow-data`);
});

/** One provider call to our endpoint for `seed`'s flow; `decrypted` is the answer read as the provider reads it. */
async function call(payload: Record<string, unknown>, options: FlowEndpointOptions & { publicKeyPem?: string; signWith?: string; flowId?: string } = {}) {
  const request = providerRequest(payload, options.publicKeyPem ?? seed.publicKeyPem, options.signWith ?? APP_SECRET);
  const result = await handleFlowEndpoint(
    servicesOf(app.runtime),
    { flowId: options.flowId ?? seed.flowId, rawBody: request.rawBody, signature: request.signature },
    { appSecret: APP_SECRET, log: (line) => logged.push(line), ...options },
  );
  const decrypted = result.status === 200 ? decryptFlowResponse(result.body, request.aesKey, request.iv) : null;
  return { ...result, decrypted };
}

const init = () => ({ version: "3.0", action: "INIT", flow_token: seed.flowToken });

describe("the provider's health check", () => {
  it("answers ping with {data: {status: active}}, encrypted as base64 text", async () => {
    const result = await call({ version: "3.0", action: "ping" });
    expect(result.status).toBe(200);
    expect(result.contentType).toMatch(/^text\/plain/);
    expect(result.body).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(result.decrypted).toEqual({ data: { status: "active" } });
    expect(receiver.received).toHaveLength(0);
  });
});

describe("decryption", () => {
  it("uses the key of whichever number of the flow's business account the flow was sent from", async () => {
    const otherNumber = await seedChannelWithKeys(app, seed.orgId, seed.projectId, seed.wabaId, generateFlowKeyPair());
    const result = await call({ action: "ping" }, { publicKeyPem: otherNumber.publicKeyPem });
    expect(result.decrypted).toEqual({ data: { status: "active" } });
  });

  it("does not try the keys of another organization's numbers", async () => {
    const stranger = await app.seed();
    const theirs = await seedChannelWithKeys(app, stranger.orgId, stranger.projectId, seed.wabaId, generateFlowKeyPair());
    expect((await call({ action: "ping" }, { publicKeyPem: theirs.publicKeyPem })).status).toBe(421);
  });
});

describe("refused requests", () => {
  it("answers 432 to a body signed with another secret, or not signed", async () => {
    expect((await call({ action: "ping" }, { signWith: "another-secret" })).status).toBe(432);
    const request = providerRequest({ action: "ping" }, seed.publicKeyPem, APP_SECRET);
    const unsigned = await handleFlowEndpoint(
      servicesOf(app.runtime),
      { flowId: seed.flowId, rawBody: request.rawBody, signature: null },
      { appSecret: APP_SECRET, log: () => {} },
    );
    expect(unsigned.status).toBe(432);
  });

  it("answers 421 to a request encrypted for another key", async () => {
    const result = await call(init(), { publicKeyPem: generateFlowKeyPair().publicKeyPem });
    expect(result.status).toBe(421);
    expect(logged.join("\n")).toMatch(/421/);
    expect(receiver.received).toHaveLength(0);
  });

  it("answers 427 to an unknown flow_token and to another flow's token", async () => {
    expect((await call({ ...init(), flow_token: "svcft_unknown" })).status).toBe(427);
    const other = await seedExchange(app, `${receiver.url}/flow-data`);
    const result = await call({ ...init(), flow_token: other.flowToken });
    expect(result.status).toBe(427);
    expect(result.reason).toMatch(/not one of this flow's dispatches/);
  });

  it("answers 427 to an expired dispatch, whether the sweep marked it yet or not", async () => {
    const lapsed = await seedDispatch(app, { ...seed }, { expiresAt: new Date(app.clock.now().getTime() - 1000) });
    const marked = await seedDispatch(app, { ...seed }, { status: "EXPIRED" });
    for (const token of [lapsed.flowToken, marked.flowToken]) {
      const result = await call({ ...init(), flow_token: token });
      expect(result.status).toBe(427);
      expect(result.reason).toMatch(/expired/);
    }
    expect(receiver.received).toHaveLength(0);
  });

  it("answers 404 for a flow id that does not exist", async () => {
    expect((await call({ action: "ping" }, { flowId: "flow_01jzzzzzzzzzzzzzzzzzzzzzzz" })).status).toBe(404);
  });
});

describe("forwarding to the data_exchange_url", () => {
  it("POSTs {action, screen, data, flow_token, flow_id, version, contact_id, dispatch_id} signed with the project's webhook secret", async () => {
    const result = await call(init());
    expect(result.status).toBe(200);
    expect(result.decrypted).toEqual({ screen: "DETAILS", data: { slot: "9:00" } });
    const [got] = await receiver.waitFor(1);
    expect(got!.path).toBe("/flow-data");
    const body = JSON.parse(got!.raw);
    expect(Object.keys(body).sort()).toEqual(["action", "contact_id", "data", "dispatch_id", "flow_id", "flow_token", "screen", "version"]);
    const [dispatch] = await app.db.select().from(flowDispatches).where(eq(flowDispatches.id, seed.dispatchId));
    expect(body).toEqual({
      action: "INIT",
      screen: null,
      data: null,
      flow_token: seed.flowToken,
      flow_id: seed.flowId,
      version: "3.0",
      contact_id: dispatch!.contactId,
      dispatch_id: seed.dispatchId,
    });
    const expected = `sha256=${createHmac("sha256", Buffer.from(seed.webhookSecret, "utf8")).update(got!.raw).digest("hex")}`;
    expect(got!.headers["x-svc-signature"]).toBe(expected);
    expect(got!.headers["x-svc-event"]).toBe("flow.data_exchange");
    expect(() => new Webhook(seed.webhookSecret).verify(got!.raw, got!.headers as Record<string, string>)).not.toThrow();
  });

  it("passes the screen and data of a data_exchange, and a SUCCESS answer carrying the flow_token", async () => {
    receiver.reply = () => ({
      status: 200,
      body: JSON.stringify({ screen: "SUCCESS", data: { extension_message_response: { params: { flow_token: seed.flowToken, booked: true } } } }),
    });
    const result = await call({ version: "3.0", action: "data_exchange", screen: "DETAILS", data: { slot: "9:00" }, flow_token: seed.flowToken });
    expect(result.status).toBe(200);
    expect(result.decrypted).toEqual({ screen: "SUCCESS", data: { extension_message_response: { params: { flow_token: seed.flowToken, booked: true } } } });
    const body = JSON.parse(receiver.received[0]!.raw);
    expect(body).toMatchObject({ action: "data_exchange", screen: "DETAILS", data: { slot: "9:00" } });
  });

  it("acknowledges an error notification without forwarding it, and logs it", async () => {
    const result = await call({ ...init(), action: "data_exchange", data: { error: "invalid-screen-transition", error_message: "bad" } });
    expect(result.status).toBe(200);
    expect(result.decrypted).toEqual({ data: { acknowledged: true } });
    expect(receiver.received).toHaveLength(0);
    expect(logged.join("\n")).toMatch(/invalid-screen-transition/);
  });
});

describe("a data_exchange_url that fails", () => {
  it("answers 500 when the business names a screen the flow does not have", async () => {
    receiver.reply = () => ({ status: 200, body: JSON.stringify({ screen: "NOWHERE", data: {} }) });
    const result = await call(init());
    expect(result.status).toBe(500);
    expect(result.reason).toMatch(/NOWHERE/);
    expect(logged.join("\n")).toMatch(/500 .*NOWHERE/);
  });

  it("answers 500 for a SUCCESS without the flow_token, an error status and an answer that is not JSON", async () => {
    const replies = [
      { status: 200, body: JSON.stringify({ screen: "SUCCESS", data: { extension_message_response: { params: {} } } }) },
      { status: 503, body: "down" },
      { status: 200, body: "<html>" },
    ];
    const reasons: string[] = [];
    for (const reply of replies) {
      receiver.reply = () => reply;
      const result = await call(init());
      expect(result.status).toBe(500);
      reasons.push(result.reason!);
    }
    expect(reasons[0]).toMatch(/flow_token/);
    expect(reasons[1]).toMatch(/HTTP 503/);
    expect(reasons[2]).toMatch(/not JSON/);
  });

  it("answers 500 when the business does not answer in time", async () => {
    receiver.reply = () => ({ status: 200, body: JSON.stringify({ screen: "DETAILS", data: {} }), delayMs: 1500 });
    // The 8 s default, shortened: what is tested is that the deadline turns into a 500, not how long it is.
    const result = await call(init(), { timeoutMs: 50 });
    expect(result.status).toBe(500);
    expect(result.reason).toMatch(/did not answer within 50 ms/);
  });

  it("answers 500 for a private or metadata address, refused by the SSRF guard before connecting", async () => {
    for (const url of ["http://10.0.0.1/flow", "http://169.254.169.254/latest/meta-data"]) {
      await app.db.update(flows).set({ dataExchangeUrl: url }).where(eq(flows.id, seed.flowId));
      const result = await call(init(), { allowPrivateNetwork: false });
      expect(result.status).toBe(500);
      expect(result.reason).toMatch(/SSRF guard/);
    }
  });

  it("answers 500 when the flow has no data_exchange_url", async () => {
    await app.db.update(flows).set({ dataExchangeUrl: null }).where(eq(flows.id, seed.flowId));
    const result = await call(init());
    expect(result.status).toBe(500);
    expect(result.reason).toMatch(/no data_exchange_url/);
  });
});
