import { generateKeyPairSync } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { verifySignature } from "@/lib/ports/provider/app-secret";
import { createProviderPort } from "@/lib/ports/provider";
import type { FlowAction } from "@/lib/ports/provider/outbound";
import { ProviderError, type ProviderAccount, type ProviderChannel, type ProviderPlatform } from "@/lib/ports/provider/types";
import { createSimulator, type Simulator } from "@/lib/simulator";
import { brokenFlowJson, validFlowJson } from "./flow-fixtures";
import { serveSimulator, startReceiver, type Receiver, type ReceivedRequest, type RunningServer } from "./http-helpers";

/**
 * The provider port's Flows API against the simulator over real HTTP; the simulator's signed `flows`
 * webhooks land on a receiver server.
 */
const SECRET = (platform: ProviderPlatform) => `test-secret-${platform}`;
const ACCOUNT: ProviderAccount = { businessAccountId: "102290129340398", phoneNumberId: "106540352242922", accessToken: "EAAG-test" };
const CHANNEL: ProviderChannel = { platform: "PLATFORM_A", senderId: ACCOUNT.phoneNumberId, accessToken: ACCOUNT.accessToken };

let receiver: Receiver;
let server: RunningServer;
let simulator: Simulator;
let names = 0;

const port = () => createProviderPort({ graphUrl: `${server.url}/api/simulator/graph` });
const flows = () => port().flows;
const uniqueName = () => `Booking ${++names}`;

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }
  throw new Error("expected the call to fail");
}

async function post(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${server.url}/api/simulator${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

type Json = Record<string, unknown>;
const flowChange = (r: ReceivedRequest): Json | null => {
  const entry = ((r.json as Json).entry as Json[] | undefined)?.[0];
  const change = (entry?.changes as Json[] | undefined)?.[0];
  return change?.field === "flows" ? (change.value as Json) : null;
};
const statusChange = (flowId: string, newStatus: string) => (r: ReceivedRequest) =>
  flowChange(r)?.flow_id === flowId && flowChange(r)?.new_status === newStatus;

async function publishedFlow(): Promise<string> {
  const { id } = await flows().createFlow(ACCOUNT, { name: uniqueName(), flowJson: validFlowJson() });
  await flows().publishFlow(ACCOUNT, id);
  return id;
}

beforeAll(async () => {
  receiver = await startReceiver();
  simulator = createSimulator({ callbackBaseUrl: receiver.url, appSecret: SECRET, statusDelaysMs: { sent: 10, delivered: 20, read: 30 }, log: () => {} });
  server = await serveSimulator(simulator);
});

afterEach(() => {
  simulator.reset();
  receiver.received.length = 0;
});

afterAll(async () => {
  simulator.reset();
  await server.close();
  await receiver.close();
});

describe("createFlow, publishFlow, getFlow", () => {
  it("creates a clean DRAFT, publishes it and reads PUBLISHED; the flows webhook says DRAFT → PUBLISHED, signed, under the business account", async () => {
    const name = uniqueName();
    const created = await flows().createFlow(ACCOUNT, { name, flowJson: validFlowJson() });
    expect(created).toEqual({ id: expect.stringMatching(/^\d{15,16}$/), validationErrors: [] });
    expect(await flows().getFlow(ACCOUNT, created.id)).toEqual({ id: created.id, status: "DRAFT", validationErrors: [] });
    // The provider received the JSON as a string and kept it as sent.
    expect(simulator.state.flows.get(created.id)).toMatchObject({
      name,
      business_account_id: ACCOUNT.businessAccountId,
      flow_json: validFlowJson(),
      categories: ["OTHER"],
    });

    await flows().publishFlow(ACCOUNT, created.id);
    expect(await flows().getFlow(ACCOUNT, created.id)).toEqual({ id: created.id, status: "PUBLISHED", validationErrors: [] });

    const [webhook] = await receiver.waitFor(statusChange(created.id, "PUBLISHED"));
    expect(webhook!.path).toBe("/api/providers/platform-a/webhook");
    expect(verifySignature(SECRET("PLATFORM_A"), webhook!.raw, String(webhook!.headers["x-hub-signature-256"]))).toBe(true);
    expect(webhook!.json).toEqual({
      object: "whatsapp_business_account",
      entry: [
        {
          id: ACCOUNT.businessAccountId,
          time: expect.any(Number),
          changes: [
            {
              field: "flows",
              value: {
                event: "FLOW_STATUS_CHANGE",
                message: `Flow ${name} changed status from DRAFT to PUBLISHED`,
                flow_id: created.id,
                old_status: "DRAFT",
                new_status: "PUBLISHED",
              },
            },
          ],
        },
      ],
    });
  });

  it("keeps a flow with validation errors in DRAFT: its errors come back in the provider's shape and publishing it fails with 139002", async () => {
    const created = await flows().createFlow(ACCOUNT, { name: uniqueName(), flowJson: brokenFlowJson() });
    expect(created.validationErrors).toEqual([
      {
        error: "INVALID_PROPERTY_VALUE",
        error_type: "FLOW_JSON_ERROR",
        message: "Screen 'NOWHERE' that navigate opens does not exist.",
        line_start: expect.any(Number),
        line_end: expect.any(Number),
        column_start: expect.any(Number),
        column_end: expect.any(Number),
        pointers: [expect.objectContaining({ path: "screens[0].layout.children[2].on-click-action.next.name" })],
      },
    ]);
    const error = await failureOf(flows().publishFlow(ACCOUNT, created.id));
    expect(error.failure).toMatchObject({ code: 139002, http_status: 400, title: "Publishing Flow with validation errors", fbtrace_id: expect.any(String) });
    expect(error.retryable).toBe(false);
    const read = await flows().getFlow(ACCOUNT, created.id);
    expect(read.status).toBe("DRAFT");
    expect(read.validationErrors).toEqual(created.validationErrors);
  });

  it("refuses a second flow with the same name under one business account (100) but not under another", async () => {
    const name = uniqueName();
    await flows().createFlow(ACCOUNT, { name, flowJson: validFlowJson() });
    const error = await failureOf(flows().createFlow(ACCOUNT, { name, flowJson: validFlowJson() }));
    expect(error.failure).toMatchObject({ code: 100, title: "Flow name is not unique" });
    const other = await flows().createFlow({ ...ACCOUNT, businessAccountId: "999000111222333" }, { name, flowJson: validFlowJson() });
    expect(other.id).toMatch(/^\d+$/);
  });

  it("fails the next publish under an account once when told to, then publishes", async () => {
    const { id } = await flows().createFlow(ACCOUNT, { name: uniqueName(), flowJson: validFlowJson() });
    const armed = await post("/control/flows/fail-next-publish", { business_account_id: ACCOUNT.businessAccountId, message: "Endpoint not available" });
    expect(armed).toEqual({ status: 200, json: { business_account_id: ACCOUNT.businessAccountId, armed: true } });
    const error = await failureOf(flows().publishFlow(ACCOUNT, id));
    expect(error.failure).toMatchObject({ code: 139002, summary: expect.stringContaining("Endpoint not available") });
    expect(error.retryable).toBe(false);
    await flows().publishFlow(ACCOUNT, id);
    expect((await flows().getFlow(ACCOUNT, id)).status).toBe("PUBLISHED");
  });

  it("refuses a second publish (139002, invalid state), an unknown flow (100) and a missing token (190)", async () => {
    const id = await publishedFlow();
    expect((await failureOf(flows().publishFlow(ACCOUNT, id))).failure).toMatchObject({ code: 139002, title: "Publishing Flow in invalid state" });
    expect((await failureOf(flows().getFlow(ACCOUNT, "1111111111111111"))).failure).toMatchObject({ code: 100, subcode: 33 });
    expect((await failureOf(flows().publishFlow({ ...ACCOUNT, accessToken: "" }, id))).failure.code).toBe(190);
  });
});

describe("deprecateFlow", () => {
  it("refuses a DRAFT (139003), deprecates a PUBLISHED flow with its webhook, and refuses it again", async () => {
    const { id } = await flows().createFlow(ACCOUNT, { name: uniqueName(), flowJson: validFlowJson() });
    const draft = await failureOf(flows().deprecateFlow(ACCOUNT, id));
    expect(draft.failure).toMatchObject({ code: 139003, title: "Can't deprecate unpublished flow" });
    expect(draft.retryable).toBe(false);

    await flows().publishFlow(ACCOUNT, id);
    await flows().deprecateFlow(ACCOUNT, id);
    expect((await flows().getFlow(ACCOUNT, id)).status).toBe("DEPRECATED");
    const [webhook] = await receiver.waitFor(statusChange(id, "DEPRECATED"));
    expect(flowChange(webhook!)).toMatchObject({ old_status: "PUBLISHED", new_status: "DEPRECATED" });

    expect((await failureOf(flows().deprecateFlow(ACCOUNT, id))).failure).toMatchObject({ code: 139003, title: "Flow is already deprecated" });
  });
});

describe("control: the provider blocks or throttles a flow", () => {
  it("blocking sends a signed flows webhook PUBLISHED → BLOCKED and the flow can no longer be sent (132068)", async () => {
    const id = await publishedFlow();
    await receiver.waitFor(statusChange(id, "PUBLISHED"));
    const blocked = await post(`/control/flows/${id}/status`, { status: "BLOCKED" });
    expect(blocked).toEqual({ status: 200, json: { id, old_status: "PUBLISHED", new_status: "BLOCKED", delivered_status: 200 } });
    const [webhook] = await receiver.waitFor(statusChange(id, "BLOCKED"));
    expect(verifySignature(SECRET("PLATFORM_A"), webhook!.raw, String(webhook!.headers["x-hub-signature-256"]))).toBe(true);
    expect(flowChange(webhook!)).toMatchObject({ event: "FLOW_STATUS_CHANGE", flow_id: id, old_status: "PUBLISHED", new_status: "BLOCKED" });
    expect((await flows().getFlow(ACCOUNT, id)).status).toBe("BLOCKED");

    await openWindow("15551240001");
    const error = await failureOf(port().send(CHANNEL, "15551240001", flowMessage(id)));
    expect(error.failure.code).toBe(132068);
  });

  it("refuses an unknown status, an unknown flow and a change to the status it already has", async () => {
    const id = await publishedFlow();
    expect((await post(`/control/flows/${id}/status`, { status: "DRAFT" })).status).toBe(400);
    expect((await post("/control/flows/1111111111111111/status", { status: "BLOCKED" })).status).toBe(404);
    expect((await post(`/control/flows/${id}/status`, { status: "PUBLISHED" })).status).toBe(409);
    expect((await post("/control/flows/fail-next-publish", {})).status).toBe(400);
  });
});

describe("registerEncryptionKey", () => {
  it("accepts a 2048-bit RSA public key in PEM and refuses anything else with 100", async () => {
    const { publicKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    });
    await flows().registerEncryptionKey(ACCOUNT, publicKey);
    expect(simulator.state.flowPublicKeys.get(ACCOUNT.phoneNumberId)).toBe(publicKey.trim());

    const notAKey = await failureOf(flows().registerEncryptionKey(ACCOUNT, "not a key"));
    expect(notAKey.failure).toMatchObject({ code: 100, summary: expect.stringContaining("PEM") });
    expect(notAKey.retryable).toBe(false);
    const small = generateKeyPairSync("rsa", {
      modulusLength: 1024,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    });
    expect((await failureOf(flows().registerEncryptionKey(ACCOUNT, small.publicKey))).failure.summary).toContain("2048-bit");
    // A refused key leaves the registered one in place.
    expect(simulator.state.flowPublicKeys.get(ACCOUNT.phoneNumberId)).toBe(publicKey.trim());
  });
});

async function openWindow(customer: string): Promise<void> {
  const opened = await post("/customer/messages", { platform: "PLATFORM_A", sender_id: CHANNEL.senderId, from: customer, type: "text", text: "hi" });
  expect(opened.status).toBe(200);
}

function flowMessage(flowId: string) {
  const flow: FlowAction = { flow_id: flowId, flow_token: "svcft_0123456789abcdefghijklmnop", flow_cta: "Book", flow_action: "navigate", screen: "WELCOME" };
  return { content: { kind: "interactive" as const, interactive: { type: "flow" as const, body: "Book a visit", flow } } };
}

describe("sending an interactive Flow message", () => {
  it("is accepted for a PUBLISHED flow and reaches the customer's inbox", async () => {
    const id = await publishedFlow();
    await openWindow("15551240002");
    const { platformMessageId } = await port().send(CHANNEL, "15551240002", flowMessage(id));
    const inbox = simulator.state.inbox(CHANNEL.senderId, "15551240002");
    expect(inbox.map((m) => m.id)).toEqual([platformMessageId]);
    expect(inbox[0]!.body).toMatchObject({ type: "interactive", interactive: { type: "flow", action: { parameters: { flow_id: id } } } });
  });

  it("is refused for an unknown flow and for a DRAFT flow (131009, final)", async () => {
    await openWindow("15551240003");
    const unknown = await failureOf(port().send(CHANNEL, "15551240003", flowMessage("1111111111111111")));
    expect(unknown.failure).toMatchObject({ code: 131009, summary: expect.stringContaining("does not exist") });
    expect(unknown.retryable).toBe(false);

    const { id } = await flows().createFlow(ACCOUNT, { name: uniqueName(), flowJson: validFlowJson() });
    await openWindow("15551240004");
    const draft = await failureOf(port().send(CHANNEL, "15551240004", flowMessage(id)));
    expect(draft.failure).toMatchObject({ code: 131009, summary: expect.stringContaining("DRAFT") });
  });
});
