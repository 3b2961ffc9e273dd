import { generateKeyPairSync } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSimulator, type Simulator } from "@/lib/simulator";
import { THROTTLED_PER_HOUR } from "@/lib/simulator/flows-send";
import { validateFlowJson } from "@/lib/simulator/flows-validate";
import { brokenFlowJson, validFlowJson } from "../provider/flow-fixtures";
import { startReceiver, type Receiver } from "../provider/http-helpers";

/** The simulator's Flows routes through handle(), as the app serves them under /api/simulator. */
const WABA = "102290129340398";
const PHONE = "106540352242922";
const AUTH = { Authorization: "Bearer EAAG-test" };

let receiver: Receiver;
let simulator: Simulator;
let names = 0;

type Json = Record<string, unknown>;

async function call(method: string, path: string, init: { body?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...AUTH, ...init.headers };
  let body: string | undefined;
  if (init.form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(init.form).toString();
  } else if (init.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(init.body);
  }
  const response = await simulator.handle(new Request(`http://sim.test/api/simulator${path}`, { method, headers, body }), path.split("?")[0]!);
  return { status: response.status, json: (await response.json()) as Json };
}

async function create(flowJson: unknown, extra: Json = {}) {
  return call("POST", `/graph/${WABA}/flows`, { body: { name: `Flow ${++names}`, categories: ["OTHER"], flow_json: flowJson, ...extra } });
}

async function publishedFlowId(): Promise<string> {
  const created = await create(JSON.stringify(validFlowJson()));
  const id = created.json.id as string;
  expect((await call("POST", `/graph/${id}/publish`)).status).toBe(200);
  return id;
}

async function openWindow(customer: string): Promise<void> {
  const opened = await call("POST", "/customer/messages", { body: { platform: "PLATFORM_A", sender_id: PHONE, from: customer, type: "text", text: "hi" } });
  expect(opened.status).toBe(200);
}

function flowSend(customer: string, parameters: Json): Promise<{ status: number; json: Json }> {
  return call("POST", `/graph/${PHONE}/messages`, {
    body: {
      messaging_product: "whatsapp",
      to: customer,
      type: "interactive",
      interactive: {
        type: "flow",
        body: { text: "Book a visit" },
        action: {
          name: "flow",
          parameters: {
            flow_message_version: "3",
            flow_token: "t",
            flow_cta: "Book",
            flow_action: "navigate",
            flow_action_payload: { screen: "WELCOME" },
            ...parameters,
          },
        },
      },
    },
  });
}

beforeAll(async () => {
  receiver = await startReceiver();
  simulator = createSimulator({
    callbackBaseUrl: receiver.url,
    appSecret: (platform) => `secret-${platform}`,
    statusDelaysMs: { sent: 5, delivered: 10, read: 15 },
    log: () => {},
  });
});

afterEach(() => {
  simulator.reset();
  receiver.received.length = 0;
});

afterAll(async () => {
  simulator.reset();
  await receiver.close();
});

describe("validateFlowJson", () => {
  const screen = (json: Json, index: number) => (json.screens as Json[])[index]!;
  const children = (json: Json, index: number) => (screen(json, index).layout as { children: Json[] }).children;

  it("finds nothing in a valid flow", () => {
    expect(validateFlowJson(validFlowJson())).toEqual([]);
  });

  it.each<[string, (json: Json) => void, string, string]>([
    ["a missing version", (json) => delete json.version, "MISSING_REQUIRED_PROPERTY", ""],
    ["an unsupported version", (json) => (json.version = "1.0"), "INVALID_PROPERTY_VALUE", "version"],
    ["a data_api_version other than 3.0", (json) => (json.data_api_version = "2.0"), "INVALID_PROPERTY_VALUE", "data_api_version"],
    ["a screen id with digits", (json) => (screen(json, 0).id = "STEP_1"), "INVALID_PROPERTY_VALUE", "screens[0].id"],
    ["the reserved SUCCESS id", (json) => (screen(json, 1).id = "success"), "INVALID_PROPERTY_VALUE", "screens[1].id"],
    ["a duplicate screen id", (json) => (screen(json, 1).id = "WELCOME"), "INVALID_PROPERTY_VALUE", "screens[1].id"],
    ["another layout", (json) => ((screen(json, 0).layout as Json).type = "TwoColumnLayout"), "INVALID_PROPERTY_VALUE", "screens[0].layout.type"],
    ["an unknown component", (json) => children(json, 0).unshift({ type: "Marquee" }), "INVALID_PROPERTY_VALUE", "screens[0].layout.children[0].type"],
    ["a heading over 80 characters", (json) => (children(json, 0)[0]!.text = "h".repeat(81)), "INVALID_PROPERTY_VALUE", "screens[0].layout.children[0].text"],
    [
      "an input label over 20 characters",
      (json) => (children(json, 0)[1]!.label = "l".repeat(21)),
      "INVALID_PROPERTY_VALUE",
      "screens[0].layout.children[1].label",
    ],
    [
      "a Footer label over 35 characters",
      (json) => (children(json, 0)[2]!.label = "f".repeat(36)),
      "INVALID_PROPERTY_VALUE",
      "screens[0].layout.children[2].label",
    ],
    ["two Footers on a screen", (json) => children(json, 1).push({ ...children(json, 1)[1]! }), "INVALID_PROPERTY_VALUE", "screens[1].layout.children"],
    [
      "more than 50 components",
      (json) => children(json, 0).unshift(...Array.from({ length: 50 }, () => ({ type: "TextBody", text: "x" }))),
      "INVALID_PROPERTY_VALUE",
      "screens[0].layout.children",
    ],
    [
      "a navigate to a missing screen",
      (json) => Object.assign(json, brokenFlowJson()),
      "INVALID_PROPERTY_VALUE",
      "screens[0].layout.children[2].on-click-action.next.name",
    ],
    [
      "an unknown action",
      (json) => ((children(json, 0)[2]!["on-click-action"] as Json).name = "teleport"),
      "INVALID_PROPERTY_VALUE",
      "screens[0].layout.children[2].on-click-action.name",
    ],
    [
      "complete on a screen that is not terminal",
      (json) => (children(json, 0)[2]!["on-click-action"] = { name: "complete" }),
      "INVALID_PROPERTY_VALUE",
      "screens[0].layout.children[2].on-click-action",
    ],
    [
      "data_exchange without an endpoint",
      (json) => (children(json, 0)[2]!["on-click-action"] = { name: "data_exchange" }),
      "INVALID_PROPERTY_VALUE",
      "screens[0].layout.children[2].on-click-action",
    ],
    ["a terminal screen without a Footer", (json) => children(json, 1).pop(), "MISSING_REQUIRED_PROPERTY", "screens[1].layout.children"],
    ["no terminal screen", (json) => delete screen(json, 1).terminal, "MISSING_REQUIRED_PROPERTY", "screens"],
    ["no screens", (json) => (json.screens = []), "MISSING_REQUIRED_PROPERTY", "screens"],
  ])("reports %s", (_name, breakIt, error, path) => {
    const json = validFlowJson();
    breakIt(json);
    expect(validateFlowJson(json)).toContainEqual({ error, message: expect.any(String), path });
  });
});

describe("POST /graph/{waba_id}/flows", () => {
  it("points each validation error at the line and columns of the flow_json string as sent", async () => {
    const text = JSON.stringify(brokenFlowJson(), null, 2);
    const created = await create(text);
    expect(created.status).toBe(200);
    const [error] = created.json.validation_errors as Json[];
    const lines = text.split("\n");
    const line = lines.findIndex((l) => l.includes('"NOWHERE"')) + 1;
    expect(error).toMatchObject({ line_start: line, line_end: line, column_start: lines[line - 1]!.indexOf('"NOWHERE"') + 1 });
    expect(error!.column_end).toBe((error!.column_start as number) + '"NOWHERE"'.length);
    expect(simulator.state.flows.get(created.json.id as string)).toMatchObject({ status: "DRAFT", validation_errors: [error] });
  });

  it("takes a form-encoded body with flow_json and categories as strings, and publish: true publishes a clean flow at once", async () => {
    const created = await call("POST", `/graph/${WABA}/flows`, {
      form: { name: "Form flow", categories: '["SURVEY","OTHER"]', flow_json: JSON.stringify(validFlowJson()), publish: "true" },
    });
    expect(created).toEqual({ status: 200, json: { id: expect.any(String), success: true, validation_errors: [] } });
    const read = await call("GET", `/graph/${created.json.id as string}?fields=status,categories,json_version`);
    expect(read.json).toEqual({ id: created.json.id, status: "PUBLISHED", categories: ["SURVEY", "OTHER"], json_version: "7.3" });
  });

  it("refuses missing categories (100), flow_json that is not a JSON object (139001) and a missing token (190); nothing is stored", async () => {
    const noCategories = await call("POST", `/graph/${WABA}/flows`, { body: { name: "x", flow_json: "{}" } });
    expect(noCategories.status).toBe(400);
    expect(noCategories.json.error).toMatchObject({ code: 100 });
    expect((await create("{not json")).json.error).toMatchObject({ code: 139001, error_user_title: "Error while processing Flow JSON" });
    expect((await call("POST", `/graph/${WABA}/flows`, { headers: { Authorization: "" }, body: { name: "x" } })).json.error).toMatchObject({ code: 190 });
    expect(simulator.state.flows.size).toBe(0);
  });
});

describe("POST /graph/{flow_id}/publish", () => {
  it("refuses an endpoint flow without endpoint_uri, and publishes it with one", async () => {
    const json = { ...validFlowJson(), data_api_version: "3.0" };
    const bare = await create(json);
    const refused = await call("POST", `/graph/${bare.json.id as string}/publish`);
    expect(refused.json.error).toMatchObject({ code: 139002, error_user_title: "Publishing without specifying endpoint_uri is forbidden" });
    const withEndpoint = await create(json, { endpoint_uri: "https://svc.example/api/providers/platform-a/flows/flw_1/endpoint" });
    expect((await call("POST", `/graph/${withEndpoint.json.id as string}/publish`)).json).toEqual({ success: true });
  });

  it("announces the change on the flows webhook once published", async () => {
    const id = await publishedFlowId();
    const [webhook] = await receiver.waitFor((r) => JSON.stringify(r.json).includes(id));
    expect(webhook!.path).toBe("/api/providers/platform-a/webhook");
    expect(webhook!.json).toMatchObject({
      entry: [{ id: WABA, changes: [{ field: "flows", value: { flow_id: id, old_status: "DRAFT", new_status: "PUBLISHED" } }] }],
    });
  });
});

describe("GET /graph/{id}", () => {
  it("answers a flow's default fields, and still answers media ids and unknown ids as before", async () => {
    const created = await create(validFlowJson());
    const id = created.json.id as string;
    expect((await call("GET", `/graph/${id}`)).json).toEqual({
      id,
      name: expect.stringMatching(/^Flow /),
      status: "DRAFT",
      categories: ["OTHER"],
      validation_errors: [],
    });
    const upload = await simulator.handle(
      new Request("http://sim.test/api/simulator/customer/media", {
        method: "POST",
        headers: { "Content-Type": "image/png" },
        body: new Uint8Array([1, 2, 3]),
      }),
      "/customer/media",
    );
    const mediaId = ((await upload.json()) as Json).id as string;
    expect((await call("GET", `/graph/${mediaId}`)).json).toMatchObject({ id: mediaId, mime_type: "image/png" });
    expect((await call("GET", "/graph/1111111111111111")).json.error).toMatchObject({ code: 100, error_subcode: 33 });
  });
});

describe("whatsapp_business_encryption", () => {
  it("registers a form-encoded key and reads it back; an unknown number has none", async () => {
    const { publicKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    });
    expect(await call("POST", `/graph/${PHONE}/whatsapp_business_encryption`, { form: { business_public_key: publicKey } })).toEqual({
      status: 200,
      json: { success: true },
    });
    expect((await call("GET", `/graph/${PHONE}/whatsapp_business_encryption`)).json).toEqual({
      data: [{ business_public_key: publicKey.trim(), business_public_key_signature_status: "VALID" }],
    });
    expect((await call("GET", "/graph/999/whatsapp_business_encryption")).json).toEqual({ data: [] });
  });

  it("refuses a private key in place of the public one", async () => {
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    });
    const refused = await call("POST", `/graph/${PHONE}/whatsapp_business_encryption`, { body: { business_public_key: privateKey } });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ code: 100 });
    expect(simulator.state.flowPublicKeys.size).toBe(0);
  });
});

describe("GET /customer/flows/{flow_id}", () => {
  it("shows the flow as the customer's app renders it", async () => {
    const created = await create(validFlowJson(), { endpoint_uri: "https://svc.example/endpoint" });
    const id = created.json.id as string;
    expect((await call("GET", `/customer/flows/${id}`)).json).toEqual({
      id,
      name: expect.any(String),
      status: "DRAFT",
      flow_json: validFlowJson(),
      endpoint_uri: "https://svc.example/endpoint",
    });
    expect((await call("GET", "/customer/flows/1111111111111111")).status).toBe(404);
  });
});

describe("POST /graph/{phone_number_id}/messages with a Flow", () => {
  it("sends a DRAFT flow only in draft mode, never a DEPRECATED one", async () => {
    const draft = (await create(validFlowJson())).json.id as string;
    await openWindow("15551250001");
    expect((await flowSend("15551250001", { flow_id: draft })).json.error).toMatchObject({ code: 131009 });
    await openWindow("15551250002");
    expect((await flowSend("15551250002", { flow_id: draft, mode: "draft" })).status).toBe(200);

    const id = await publishedFlowId();
    expect((await call("POST", `/graph/${id}/deprecate`)).json).toEqual({ success: true });
    await openWindow("15551250003");
    const deprecated = await flowSend("15551250003", { flow_id: id });
    expect(deprecated.json.error).toMatchObject({ code: 131009, error_data: { details: expect.stringContaining("DEPRECATED") } });
  });

  it(`lets a THROTTLED flow be sent ${THROTTLED_PER_HOUR} times an hour, then refuses it (132069)`, async () => {
    const id = await publishedFlowId();
    const throttled = await call("POST", `/control/flows/${id}/status`, { body: { status: "THROTTLED" } });
    expect(throttled.json).toMatchObject({ old_status: "PUBLISHED", new_status: "THROTTLED", delivered_status: 200 });
    for (let i = 0; i < THROTTLED_PER_HOUR; i++) {
      const customer = `1555126${String(i).padStart(4, "1")}`;
      await openWindow(customer);
      expect((await flowSend(customer, { flow_id: id })).status).toBe(200);
    }
    await openWindow("15551269999");
    expect((await flowSend("15551269999", { flow_id: id })).json.error).toMatchObject({ code: 132069 });
  });

  it("finds a flow by flow_name too", async () => {
    const id = await publishedFlowId();
    await openWindow("15551270001");
    const sent = await flowSend("15551270001", { flow_name: simulator.state.flows.get(id)!.name });
    expect(sent.status).toBe(200);
  });
});

describe("reset", () => {
  it("forgets flows, keys and armed publish failures", async () => {
    await create(validFlowJson());
    simulator.state.flowPublicKeys.set(PHONE, "pem");
    await call("POST", "/control/flows/fail-next-publish", { body: { business_account_id: WABA } });
    simulator.reset();
    expect([simulator.state.flows.size, simulator.state.flowPublicKeys.size, simulator.state.flowPublishFailures.size]).toEqual([0, 0, 0]);
  });
});
