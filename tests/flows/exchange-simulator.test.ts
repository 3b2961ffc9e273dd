import http from "node:http";
import { closeServer, listenOn } from "@/lib/server/node-http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST } from "@/app/api/providers/[platform]/flows/[flowId]/endpoint/route";
import { appSecretFor, simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import type { SimulatorContext } from "@/lib/simulator/context";
import { customerFlowExchange, exchangeWithEndpoint } from "@/lib/simulator/flow-exchange";
import { SimulatorState } from "@/lib/simulator/state";
import { createTestApp, type TestApp } from "../support/app";
import { startReceiver, type Receiver } from "../support/receiver";
import { seedExchange, type ExchangeSeed } from "./exchange-support";

/**
 * The simulator playing the provider against the real route (app/api/providers/[platform]/flows/[flowId]/endpoint)
 * served over HTTP, with the business's data URL a real receiver.
 */
let app: TestApp;
let receiver: Receiver;
let server: http.Server;
let base: string;
let seed: ExchangeSeed;
let sim: SimulatorContext;
const PROVIDER_FLOW_ID = "sim-flow-1";

beforeAll(async () => {
  app = await createTestApp();
  receiver = await startReceiver();
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const match = /^\/api\/providers\/([^/]+)\/flows\/([^/]+)\/endpoint$/.exec(req.url ?? "");
    if (!match) return void res.writeHead(404).end();
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const request = new Request(`${base}${req.url}`, { method: req.method, headers, body: Buffer.concat(chunks) });
    const response = await POST(request, { params: Promise.resolve({ platform: match[1]!, flowId: match[2]! }) });
    res.writeHead(response.status, Object.fromEntries(response.headers.entries())).end(Buffer.from(await response.arrayBuffer()));
  });
  base = await listenOn(server);
});
afterAll(async () => {
  if (server) await closeServer(server);
  await receiver?.close();
  await app?.close();
});
beforeEach(async () => {
  app.clock.set(Date.now());
  receiver.received.length = 0;
  receiver.reply = () => ({ status: 200, body: JSON.stringify({ screen: "WELCOME", data: { greeting: "hi" } }) });
  seed = await seedExchange(app, `${receiver.url}/data`);
  const state = new SimulatorState();
  state.flowPublicKeys.set(seed.phoneNumberId, seed.publicKeyPem);
  state.flows.set(PROVIDER_FLOW_ID, {
    id: PROVIDER_FLOW_ID,
    business_account_id: "waba",
    name: "Booking",
    flow_json: {},
    endpoint_uri: `${base}/api/providers/platform-a/flows/${seed.flowId}/endpoint`,
    status: "PUBLISHED",
    validation_errors: [],
    created_at: new Date().toISOString(),
  });
  sim = {
    state,
    now: () => new Date(),
    webhookUrl: () => `${base}/unused`,
    appSecret: (platform) => appSecretFor(platform) ?? simulatorAppSecret(platform),
    statusDelaysMs: { sent: 0, delivered: 0, read: 0 },
    publicBase: () => `${base}/api/simulator`,
    sleep: async () => true,
    log: () => {},
  };
});

function customer(body: unknown) {
  return customerFlowExchange(sim, new Request("http://sim.test/customer/flows/exchange", { method: "POST", body: JSON.stringify(body) }));
}

describe("the simulator's Flow endpoint calls", () => {
  it("pings the endpoint and reads the encrypted answer", async () => {
    const outcome = await exchangeWithEndpoint(sim, { flow_id: PROVIDER_FLOW_ID, phone_number_id: seed.phoneNumberId, action: "ping" });
    expect(outcome).toMatchObject({ ok: true, status: 200, response: { data: { status: "active" } } });
  });

  it("POST /customer/flows/exchange: INIT reaches the business and its screen comes back", async () => {
    const response = await customer({ flow_id: PROVIDER_FLOW_ID, phone_number_id: seed.phoneNumberId, flow_token: seed.flowToken, action: "INIT" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 200, response: { screen: "WELCOME", data: { greeting: "hi" } } });
    expect(JSON.parse(receiver.received[0]!.raw)).toMatchObject({ action: "INIT", flow_id: seed.flowId, dispatch_id: seed.dispatchId });
  });

  it("reports our endpoint's refusal as its status: 427 for an unknown token", async () => {
    const response = await customer({
      flow_id: PROVIDER_FLOW_ID,
      phone_number_id: seed.phoneNumberId,
      flow_token: "svcft_nope",
      action: "data_exchange",
      screen: "WELCOME",
    });
    expect(await response.json()).toMatchObject({ status: 427, response: null });
  });

  it("refuses input it cannot send: no key for the number, unknown flow, missing flow_token", async () => {
    expect((await customer({ flow_id: PROVIDER_FLOW_ID, phone_number_id: "unknown-number", action: "ping" })).status).toBe(404);
    expect((await customer({ flow_id: "no-such-flow", phone_number_id: seed.phoneNumberId, action: "ping" })).status).toBe(404);
    expect((await customer({ flow_id: PROVIDER_FLOW_ID, phone_number_id: seed.phoneNumberId, action: "INIT" })).status).toBe(400);
  });
});

describe("the provider endpoint route", () => {
  it("is PLATFORM_A only: another platform's path is 404", async () => {
    const response = await fetch(`${base}/api/providers/platform-b/flows/${seed.flowId}/endpoint`, { method: "POST", body: "{}" });
    expect(response.status).toBe(404);
  });

  it("answers 432 to an unsigned body", async () => {
    const response = await fetch(`${base}/api/providers/platform-a/flows/${seed.flowId}/endpoint`, { method: "POST", body: "{}" });
    expect(response.status).toBe(432);
  });
});
