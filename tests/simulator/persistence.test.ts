import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createProviderPort } from "@/lib/ports/provider";
import { ProviderError, type ProviderPlatform } from "@/lib/ports/provider/types";
import { createSimulator, type Simulator } from "@/lib/simulator";
import { validFlowJson } from "../provider/flow-fixtures";
import { serveSimulator, startReceiver, type Receiver, type RunningServer } from "../provider/http-helpers";

/**
 * The simulator's provider-side memory survives a restart (lib/simulator/persistence.ts): a customer
 * wrote, the simulator stopped, a new one on the same folder still has the 24-hour window (a reply is
 * accepted, not 131047), the inbox, flows, templates, media and throughput. A missing or corrupt file
 * starts empty with one line saying so.
 */
const SECRET = (platform: ProviderPlatform) => `persist-secret-${platform}`;
const WABA = "102290129340401";
const SENDER = "106540352240001";
const CHANNEL = { platform: "PLATFORM_A" as const, senderId: SENDER, accessToken: "EAAG-test" };
const AUTH = { Authorization: "Bearer EAAG-test" };
type Json = Record<string, unknown>;

let receiver: Receiver;
let dir = "";
let running: { simulator: Simulator; server: RunningServer } | null = null;
let logs: string[] = [];
let clockOffsetMs = 0;

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver.close();
});

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-sim-state-"));
  logs = [];
  clockOffsetMs = 0;
});

afterEach(async () => {
  await stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function start(options: { templateReviewMs?: number } = {}): Promise<string> {
  const simulator = createSimulator({
    callbackBaseUrl: receiver.url,
    appSecret: SECRET,
    statusDelaysMs: { sent: 10, delivered: 20, read: 30 },
    now: () => new Date(Date.now() + clockOffsetMs),
    log: (message) => logs.push(message),
    stateDir: dir,
    ...(options.templateReviewMs !== undefined ? { templateReviewMs: options.templateReviewMs } : {}),
  });
  running = { simulator, server: await serveSimulator(simulator) };
  return running.server.url;
}

/** Stops the way the app and `npm run simulator` stop: the server closes, the simulator saves. */
async function stop(): Promise<void> {
  await running?.server.close();
  running = null;
}

async function call(url: string, method: string, route: string, body?: unknown, headers: Record<string, string> = AUTH) {
  const init: RequestInit = { method, headers: { ...headers, ...(body === undefined ? {} : { "Content-Type": "application/json" }) } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await fetch(`${url}${route}`, init);
  return { status: response.status, json: (await response.json()) as Json };
}

async function customerWrites(url: string, from: string, text = "hi") {
  const answer = await call(url, "POST", "/customer/messages", { platform: "PLATFORM_A", sender_id: SENDER, from, type: "text", text }, {});
  expect(answer.status).toBe(200);
}

const inboxTexts = async (url: string, address: string) =>
  ((await call(url, "GET", `/customer/inbox?sender_id=${SENDER}&address=${address}`)).json.data as Json[]).map((m) => m.text);

describe("the simulator's memory across a restart", () => {
  it("a business reply inside the window the customer opened before the restart is accepted, and the inbox is still there", async () => {
    let url = await start();
    await customerWrites(url, "15550002001");
    await createProviderPort({ graphUrl: `${url}/graph` }).send(CHANNEL, "15550002001", { content: { kind: "text", text: "before" } });
    await stop();

    url = await start();
    const port = createProviderPort({ graphUrl: `${url}/graph` });
    // Without the window this is 131047 ("more than 24 hours"), what the app saw after a restart.
    const { platformMessageId } = await port.send(CHANNEL, "15550002001", { content: { kind: "text", text: "after" } });
    expect(platformMessageId).toMatch(/^wamid\./);
    expect(await inboxTexts(url, "15550002001")).toEqual(["before", "after"]);
    // A customer who never wrote still has no window.
    const refused = await port.send(CHANNEL, "15550002002", { content: { kind: "text", text: "cold" } }).catch((error: unknown) => error);
    expect(ProviderError.is(refused) && refused.failure.code).toBe(131047);
  });

  it("a window that closed while the simulator was stopped stays closed", async () => {
    let url = await start();
    await customerWrites(url, "15550002003");
    await stop();
    clockOffsetMs = 25 * 60 * 60 * 1000;
    url = await start();
    const refused = await createProviderPort({ graphUrl: `${url}/graph` })
      .send(CHANNEL, "15550002003", { content: { kind: "text", text: "too late" } })
      .catch((error: unknown) => error);
    expect(ProviderError.is(refused) && refused.failure.code).toBe(131047);
  });

  it("flows, templates, media, encryption keys and a number's throughput survive too", async () => {
    let url = await start();
    const flow = await call(url, "POST", `/graph/${WABA}/flows`, { name: "Kept flow", categories: ["OTHER"], flow_json: JSON.stringify(validFlowJson()) });
    expect(flow.status).toBe(200);
    const template = await call(url, "POST", `/graph/${WABA}/message_templates`, {
      name: "kept_template",
      language: "en_US",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Your order {{1}} has shipped today.", example: { body_text: [["A-1"]] } }],
    });
    expect(template.status).toBe(200);
    const bytes = Buffer.from("a picture's bytes");
    const media = (await (await fetch(`${url}/customer/media`, { method: "POST", headers: { "Content-Type": "image/png" }, body: bytes })).json()) as Json;
    expect((await call(url, "POST", "/control/numbers/throughput", { phone_number_id: SENDER, messages_per_second: 1000 }, {})).status).toBe(200);
    const { publicKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    });
    expect((await call(url, "POST", `/graph/${SENDER}/whatsapp_business_encryption`, { business_public_key: publicKey })).status).toBe(200);
    await stop();

    url = await start();
    expect((await call(url, "GET", `/graph/${flow.json.id as string}?fields=name,status`)).json).toMatchObject({ name: "Kept flow", status: "DRAFT" });
    expect((await call(url, "GET", `/graph/${template.json.id as string}?fields=name,status`)).json).toMatchObject({ name: "kept_template" });
    expect((await call(url, "GET", `/graph/${media.id as string}`)).json).toMatchObject({ id: media.id, mime_type: "image/png", file_size: bytes.length });
    const download = await fetch(`${url}/media-download/${media.id as string}`, { headers: AUTH });
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await call(url, "GET", `/control/numbers/throughput?phone_number_id=${SENDER}`, undefined, {})).json).toMatchObject({ level: "HIGH" });
    expect((await call(url, "GET", `/graph/${SENDER}/whatsapp_business_encryption`)).json).toEqual({
      data: [{ business_public_key: publicKey.trim(), business_public_key_signature_status: "VALID" }],
    });
  });

  it("a template still under review when it stopped is reviewed after the restart", async () => {
    let url = await start({ templateReviewMs: 60_000 });
    const submitted = await call(url, "POST", `/graph/${WABA}/message_templates`, {
      name: "pending_at_stop",
      language: "en_US",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Your order {{1}} is on its way now.", example: { body_text: [["A-2"]] } }],
    });
    await stop();
    url = await start({ templateReviewMs: 50 });
    const deadline = Date.now() + 5_000;
    let status: unknown = "PENDING";
    while (status === "PENDING" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      status = (await call(url, "GET", `/graph/${submitted.json.id as string}?fields=status`)).json.status;
    }
    expect(status).toBe("APPROVED");
  });

  it("saves by itself shortly after a change, atomically (no temporary file left), without waiting for the stop", async () => {
    const url = await start();
    await customerWrites(url, "15550002004");
    const file = path.join(dir, "state.json");
    // Saved within half a second of the change (persistence.ts SAVE_DELAY_MS), with room for a busy machine.
    const deadline = Date.now() + 3_000;
    while (!fs.existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    const saved = JSON.parse(fs.readFileSync(file, "utf8")) as { windows: [string, string, number][] };
    expect(saved.windows.map(([sender, address]) => [sender, address])).toEqual([[SENDER, "15550002004"]]);
    expect(fs.readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("a corrupt file starts it empty with one line saying so (the file kept aside), and it saves afresh", async () => {
    fs.writeFileSync(path.join(dir, "state.json"), '{"version":1,"senders":[["trunc');
    let url = await start();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/state\.json is not a readable simulator snapshot \(.+\): starting empty/);
    expect(fs.existsSync(path.join(dir, "state.json.corrupt"))).toBe(true);
    expect(await inboxTexts(url, "15550002005")).toEqual([]);

    await customerWrites(url, "15550002005");
    await stop();
    logs = [];
    url = await start();
    expect(logs).toEqual([]);
    await createProviderPort({ graphUrl: `${url}/graph` }).send(CHANNEL, "15550002005", { content: { kind: "text", text: "fine again" } });
  });

  it("a missing file starts it empty with one line saying so", async () => {
    const url = await start();
    expect(logs).toEqual([expect.stringMatching(/^no saved state in .*state\.json yet: starting empty$/)]);
    expect(await inboxTexts(url, "15550002006")).toEqual([]);
  });
});
