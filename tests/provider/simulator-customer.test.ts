import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { verifySignature } from "@/lib/ports/provider/app-secret";
import type { ProviderPlatform } from "@/lib/ports/provider/types";
import { createSimulator, type Simulator } from "@/lib/simulator";
import { serveSimulator, startReceiver, type Receiver, type RunningServer } from "./http-helpers";

/**
 * Customer actions: each must reach our webhook endpoint as the provider's own, signed envelope,
 * with the field names of the provider's webhook reference.
 */
type Json = Record<string, unknown>;
const SECRET = (platform: ProviderPlatform) => `cust-secret-${platform}`;
const SENDER_A = "106540352242922";
const SENDER_B = "17841400000000002";
const SENDER_C = "102030405060709";

let receiver: Receiver;
let server: RunningServer;
let simulator: Simulator;

beforeAll(async () => {
  receiver = await startReceiver();
  simulator = createSimulator({ callbackBaseUrl: receiver.url, appSecret: SECRET, log: () => {} });
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

const sim = (path: string) => `${server.url}/api/simulator${path}`;

async function act(body: Json): Promise<{ status: number; json: Json; envelope: Json }> {
  const before = receiver.received.length;
  const response = await fetch(sim("/customer/messages"), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Json;
  const delivered = receiver.received.slice(before);
  if (response.status !== 200) return { status: response.status, json, envelope: {} };
  expect(delivered).toHaveLength(1);
  const request = delivered[0]!;
  const platform = body.platform as ProviderPlatform;
  expect(request.path).toBe(`/api/providers/${platform.toLowerCase().replace("_", "-")}/webhook`);
  expect(verifySignature(SECRET(platform), request.raw, String(request.headers["x-hub-signature-256"]))).toBe(true);
  return { status: response.status, json, envelope: request.json as Json };
}

/** Checks the Cloud API envelope and returns messages[0]. */
function platformAMessage(envelope: Json, from: string): Json {
  expect(Object.keys(envelope).sort()).toEqual(["entry", "object"]);
  expect(envelope.object).toBe("whatsapp_business_account");
  const entry = (envelope.entry as Json[])[0]!;
  expect(entry.id).toEqual(expect.stringMatching(/^\d+$/));
  const change = (entry.changes as Json[])[0]!;
  expect(change.field).toBe("messages");
  const value = change.value as Json;
  expect(value.messaging_product).toBe("whatsapp");
  expect(value.metadata).toEqual({ display_phone_number: expect.stringMatching(/^\d+$/), phone_number_id: SENDER_A });
  expect(value.contacts).toEqual([{ profile: { name: expect.any(String) }, wa_id: from }]);
  const messages = value.messages as Json[];
  expect(messages).toHaveLength(1);
  const message = messages[0]!;
  expect(message).toMatchObject({ from, id: expect.stringMatching(/^wamid\./), timestamp: expect.stringMatching(/^\d{10}$/), type: expect.any(String) });
  expect(message).toHaveProperty(String(message.type));
  return message;
}

function messagingItem(envelope: Json, platform: "PLATFORM_B" | "PLATFORM_C", sender: string, from: string): Json {
  expect(envelope.object).toBe(platform === "PLATFORM_B" ? "instagram" : "page");
  const entry = (envelope.entry as Json[])[0]!;
  expect(entry).toMatchObject({ id: sender, time: expect.any(Number) });
  const items = entry.messaging as Json[];
  expect(items).toHaveLength(1);
  expect(items[0]).toMatchObject({ sender: { id: from }, recipient: { id: sender }, timestamp: expect.any(Number) });
  return items[0]!;
}

describe("PLATFORM_A customer actions", () => {
  const base = { platform: "PLATFORM_A", sender_id: SENDER_A, from: "15557654321", name: "Grace" };

  it("text, with a reply quoting context", async () => {
    const { json, envelope } = await act({ ...base, type: "text", text: "Hello", reply_to: "wamid.PREV" });
    const message = platformAMessage(envelope, "15557654321");
    expect(message.id).toBe(json.message_id);
    expect(message).toMatchObject({ type: "text", text: { body: "Hello" }, context: { from: expect.any(String), id: "wamid.PREV" } });
    expect(json.delivered_status).toBe(200);
  });

  it("uploaded image: id, sha256 and mime in the webhook; retrievable through GET /graph/{id} and the Bearer download", async () => {
    const bytes = Buffer.from("not really a jpeg, but bytes");
    const upload = await fetch(sim("/customer/media?filename=photo.jpg"), { method: "POST", headers: { "Content-Type": "image/jpeg" }, body: bytes });
    const uploaded = (await upload.json()) as Json;
    expect(uploaded).toMatchObject({
      id: expect.stringMatching(/^\d+$/),
      url: expect.stringContaining("/api/simulator/cdn/"),
      mime_type: "image/jpeg",
      file_size: bytes.length,
    });

    const { envelope } = await act({ ...base, type: "image", media: { id: uploaded.id, caption: "Look" } });
    const message = platformAMessage(envelope, "15557654321");
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    expect(message.image).toEqual({ caption: "Look", mime_type: "image/jpeg", sha256, id: uploaded.id });

    expect((await fetch(sim(`/graph/${String(uploaded.id)}`))).status).toBe(401);
    const info = (await (await fetch(sim(`/graph/${String(uploaded.id)}`), { headers: { Authorization: "Bearer t" } })).json()) as Json;
    expect(info).toEqual({
      messaging_product: "whatsapp",
      url: expect.stringContaining(`/media-download/${String(uploaded.id)}`),
      mime_type: "image/jpeg",
      sha256,
      file_size: bytes.length,
      id: uploaded.id,
    });
    expect((await fetch(String(info.url))).status).toBe(401);
    const download = await fetch(String(info.url), { headers: { Authorization: "Bearer t" } });
    expect(download.headers.get("content-type")).toBe("image/jpeg");
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

    const missing = await fetch(sim("/graph/999"), { headers: { Authorization: "Bearer t" } });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: Json }).error).toMatchObject({ code: 100, error_subcode: 33 });
  });

  it("voice note, document with filename, animated sticker and video (placeholders when no file is given)", async () => {
    const audio = platformAMessage(
      (await act({ ...base, type: "audio", media: { voice: true, mime_type: "audio/ogg; codecs=opus" } })).envelope,
      "15557654321",
    );
    expect(audio.audio).toEqual({
      mime_type: "audio/ogg; codecs=opus",
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      id: expect.stringMatching(/^\d+$/),
      voice: true,
    });
    const doc = platformAMessage((await act({ ...base, type: "document", media: { filename: "menu.pdf", caption: "Menu" } })).envelope, "15557654321");
    expect(doc.document).toMatchObject({ caption: "Menu", filename: "menu.pdf", mime_type: "application/pdf" });
    const sticker = platformAMessage((await act({ ...base, type: "sticker", media: { animated: true } })).envelope, "15557654321");
    expect(sticker.sticker).toMatchObject({ mime_type: "image/webp", animated: true });
    const video = platformAMessage((await act({ ...base, type: "video" })).envelope, "15557654321");
    expect(video.video).toMatchObject({ mime_type: "video/mp4", id: expect.any(String) });
  });

  it("location and contacts", async () => {
    const location = platformAMessage(
      (await act({ ...base, type: "location", location: { latitude: 52.5, longitude: 13.4, name: "Home", address: "Street 1" } })).envelope,
      "15557654321",
    );
    expect(location.location).toEqual({ latitude: 52.5, longitude: 13.4, name: "Home", address: "Street 1" });
    const card = { name: { formatted_name: "Ada L", first_name: "Ada" }, phones: [{ phone: "+1 555 0001", wa_id: "15550001", type: "CELL" }] };
    const contacts = platformAMessage((await act({ ...base, type: "contacts", contacts: [card] })).envelope, "15557654321");
    expect(contacts.contacts).toEqual([card]);
  });

  it("button_reply, list_reply and Flow completion (nfm_reply with response_json)", async () => {
    const button = platformAMessage(
      (await act({ ...base, type: "button_reply", reply: { id: "yes", title: "Yes" }, reply_to: "wamid.Q" })).envelope,
      "15557654321",
    );
    expect(button).toMatchObject({
      type: "interactive",
      interactive: { type: "button_reply", button_reply: { id: "yes", title: "Yes" } },
      context: { id: "wamid.Q" },
    });
    const list = platformAMessage(
      (await act({ ...base, type: "list_reply", reply: { id: "r1", title: "9:00", description: "Early" } })).envelope,
      "15557654321",
    );
    expect(list.interactive).toEqual({ type: "list_reply", list_reply: { id: "r1", title: "9:00", description: "Early" } });
    const flow = platformAMessage(
      (await act({ ...base, type: "flow_completion", flow: { flow_token: "fd_123", response: { size: "M" } } })).envelope,
      "15557654321",
    );
    const interactive = flow.interactive as Json;
    expect(interactive.type).toBe("nfm_reply");
    const nfm = interactive.nfm_reply as Json;
    expect(nfm).toMatchObject({ name: "flow", body: "Sent", response_json: expect.any(String) });
    expect(JSON.parse(String(nfm.response_json))).toEqual({ size: "M", flow_token: "fd_123" });
  });

  it("template quick reply button, reaction, edit, revoke, system and unsupported", async () => {
    const button = platformAMessage((await act({ ...base, type: "button", button: { payload: "STOP", text: "Stop" } })).envelope, "15557654321");
    expect(button.button).toEqual({ payload: "STOP", text: "Stop" });
    const reaction = platformAMessage((await act({ ...base, type: "reaction", reaction: { message_id: "wamid.M", emoji: "👍" } })).envelope, "15557654321");
    expect(reaction.reaction).toEqual({ message_id: "wamid.M", emoji: "👍" });
    const edit = platformAMessage((await act({ ...base, type: "edit", edit: { message_id: "wamid.O", text: "fixed" } })).envelope, "15557654321");
    expect(edit.edit).toEqual({ original_message_id: "wamid.O", message: { type: "text", text: { body: "fixed" } } });
    const revoke = platformAMessage((await act({ ...base, type: "revoke", revoke: { message_id: "wamid.O" } })).envelope, "15557654321");
    expect(revoke.revoke).toEqual({ original_message_id: "wamid.O" });
    const system = platformAMessage((await act({ ...base, type: "system", system: { new_wa_id: "15550009999" } })).envelope, "15557654321");
    expect(system.system).toMatchObject({ type: "user_changed_number", new_wa_id: "15550009999", body: expect.any(String) });
    const unsupported = platformAMessage((await act({ ...base, type: "unsupported", unsupported: { type: "poll_update" } })).envelope, "15557654321");
    expect(unsupported).toMatchObject({
      type: "unsupported",
      unsupported: { type: "poll_update" },
      errors: [{ code: 131051, title: "Message type unknown", message: "Message type unknown", error_data: { details: expect.any(String) } }],
    });
  });

  it("uses the business account id and display number it is given", async () => {
    const { envelope } = await act({ ...base, type: "text", text: "hi", business_account_id: "102290129340398", display_phone_number: "15550783881" });
    const entry = (envelope.entry as Json[])[0]!;
    expect(entry.id).toBe("102290129340398");
    expect(((entry.changes as Json[])[0]!.value as Json).metadata).toEqual({ display_phone_number: "15550783881", phone_number_id: SENDER_A });
  });

  it("refuses incomplete or impossible actions", async () => {
    expect((await act({ ...base, type: "text" })).status).toBe(400);
    expect((await act({ ...base, type: "reaction" })).status).toBe(400);
    expect((await act({ ...base, from: "grace", type: "text", text: "x" })).status).toBe(400);
    expect((await act({ ...base, type: "postback", postback: { title: "t", payload: "p" } })).status).toBe(400);
    expect((await act({ ...base, type: "image", media: { id: "404404" } })).status).toBe(400);
    expect(receiver.received).toHaveLength(0);
  });
});

describe("PLATFORM_B and PLATFORM_C customer actions", () => {
  it.each([
    ["PLATFORM_B", SENDER_B, /^aWdf/],
    ["PLATFORM_C", SENDER_C, /^m_/],
  ] as const)("%s: text with reply_to, quick reply tap, postback", async (platform, sender, midPattern) => {
    const base = { platform, sender_id: sender, from: "user-77" };
    const text = await act({ ...base, type: "text", text: "hello", reply_to: "mid.prev" });
    const item = messagingItem(text.envelope, platform, sender, "user-77");
    expect(item.message).toEqual({ mid: text.json.message_id, text: "hello", reply_to: { mid: "mid.prev" } });
    expect(text.json.message_id).toMatch(midPattern);

    const tap = messagingItem((await act({ ...base, type: "button_reply", reply: { id: "yes", title: "Yes" } })).envelope, platform, sender, "user-77");
    expect(tap.message).toMatchObject({ text: "Yes", quick_reply: { payload: "yes" } });
    const postback = messagingItem(
      (await act({ ...base, type: "postback", postback: { title: "Start", payload: "GET_STARTED" } })).envelope,
      platform,
      sender,
      "user-77",
    );
    expect(postback.postback).toMatchObject({ mid: expect.any(String), title: "Start", payload: "GET_STARTED" });
  });

  it.each([
    ["PLATFORM_B", SENDER_B],
    ["PLATFORM_C", SENDER_C],
  ] as const)("%s: attachments carry a URL fetchable without headers; reactions and edits name the original mid", async (platform, sender) => {
    const base = { platform, sender_id: sender, from: "user-88" };
    const bytes = Buffer.from("PNGDATA");
    const uploaded = (await (await fetch(sim("/customer/media"), { method: "POST", headers: { "Content-Type": "image/png" }, body: bytes })).json()) as Json;
    const image = messagingItem((await act({ ...base, type: "image", media: { id: uploaded.id } })).envelope, platform, sender, "user-88");
    const attachments = (image.message as Json).attachments as Json[];
    expect(attachments).toEqual([{ type: "image", payload: { url: uploaded.url } }]);
    const fetched = await fetch(String(uploaded.url));
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);

    const linked = messagingItem(
      (await act({ ...base, type: "document", media: { link: "https://files.example/a.pdf" } })).envelope,
      platform,
      sender,
      "user-88",
    );
    expect((linked.message as Json).attachments).toEqual([{ type: "file", payload: { url: "https://files.example/a.pdf" } }]);

    const reaction = await act({ ...base, type: "reaction", reaction: { message_id: "mid.biz", emoji: "❤️" } });
    expect(reaction.json.message_id).toBe("mid.biz");
    expect(messagingItem(reaction.envelope, platform, sender, "user-88").reaction).toEqual({ mid: "mid.biz", action: "react", reaction: "love", emoji: "❤️" });
    const unreact = await act({ ...base, type: "reaction", reaction: { message_id: "mid.biz", emoji: "" } });
    expect(messagingItem(unreact.envelope, platform, sender, "user-88").reaction).toEqual({ mid: "mid.biz", action: "unreact" });

    const edit = await act({ ...base, type: "edit", edit: { message_id: "mid.old", text: "new text" } });
    expect(messagingItem(edit.envelope, platform, sender, "user-88").message_edit).toEqual({ mid: "mid.old", text: "new text", num_edit: 1 });
  });

  it("PLATFORM_C: location and sticker; PLATFORM_B: revoke and unsupported", async () => {
    const c = { platform: "PLATFORM_C", sender_id: SENDER_C, from: "user-99" };
    const location = messagingItem(
      (await act({ ...c, type: "location", location: { latitude: 1.5, longitude: 2.5, name: "Cafe" } })).envelope,
      "PLATFORM_C",
      SENDER_C,
      "user-99",
    );
    expect((location.message as Json).attachments).toEqual([{ type: "location", title: "Cafe", payload: { coordinates: { lat: 1.5, long: 2.5 } } }]);
    const sticker = messagingItem((await act({ ...c, type: "sticker" })).envelope, "PLATFORM_C", SENDER_C, "user-99");
    expect((sticker.message as Json).attachments).toEqual([
      { type: "image", payload: { url: expect.stringContaining("/cdn/"), sticker_id: expect.any(Number) } },
    ]);

    const b = { platform: "PLATFORM_B", sender_id: SENDER_B, from: "user-99" };
    const revoke = messagingItem((await act({ ...b, type: "revoke", revoke: { message_id: "aWdfX" } })).envelope, "PLATFORM_B", SENDER_B, "user-99");
    expect(revoke.message).toEqual({ mid: "aWdfX", is_deleted: true });
    const unsupported = messagingItem((await act({ ...b, type: "unsupported" })).envelope, "PLATFORM_B", SENDER_B, "user-99");
    expect(unsupported.message).toEqual({ mid: expect.any(String), is_unsupported: true });
  });

  it("refuses what the platform has no webhook for", async () => {
    const b = { platform: "PLATFORM_B", sender_id: SENDER_B, from: "u" };
    const c = { platform: "PLATFORM_C", sender_id: SENDER_C, from: "u" };
    expect((await act({ ...b, type: "location", location: { latitude: 1, longitude: 1 } })).status).toBe(400);
    expect((await act({ ...c, type: "contacts", contacts: [{ name: { formatted_name: "A" } }] })).status).toBe(400);
    expect((await act({ ...c, type: "flow_completion", flow: { flow_token: "t" } })).status).toBe(400);
    expect((await act({ ...c, type: "image", media: { caption: "no captions here" } })).status).toBe(400);
    expect(receiver.received).toHaveLength(0);
  });
});

describe("simulator routing", () => {
  it("answers 404 for unknown routes, 405 for wrong methods, and lists its routes", async () => {
    expect((await fetch(sim("/nope"))).status).toBe(404);
    expect((await fetch(sim("/customer/messages"))).status).toBe(405);
    expect((await fetch(sim("/graph/123/messages"))).status).toBe(405);
    const index = (await (await fetch(sim("/"))).json()) as Json;
    expect(index.routes).toContain("POST /graph/{sender_id}/messages");
  });

  it("reports a webhook endpoint it could not reach in all its attempts as 502 with the message id", async () => {
    const offline = createSimulator({ callbackBaseUrl: "http://127.0.0.1:9", appSecret: SECRET, log: () => {}, webhookRetryDelaysMs: [10, 20] });
    const response = await offline.handle(
      new Request("http://sim.local/api/simulator/customer/messages", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ platform: "PLATFORM_A", sender_id: SENDER_A, from: "15550001111", type: "text", text: "hi" }),
      }),
      "/customer/messages",
    );
    expect(response.status).toBe(502);
    expect((await response.json()) as Json).toMatchObject({
      message_id: expect.stringMatching(/^wamid\./),
      delivered_status: null,
      attempts: 3,
      retrying: false,
    });
    offline.reset();
  });
});
