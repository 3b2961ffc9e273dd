/**
 * POST /messages end to end, per content type: every kind is accepted (200, the spec's exact response),
 * reaches the provider simulator with the right Cloud API body, and moves queued → sent → delivered →
 * read through signed status callbacks. reply_to (provider id and msg_ id) becomes context.message_id.
 * Pair pacing (1 per 6 s per recipient) means one tester per send.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_CHANNEL_ID, SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import type { Seeded } from "../support/app";
import { expectError } from "../support/wire";
import type { Harness } from "./support";
import {
  CONTENT_FIELDS,
  RESPONSE_FIELDS,
  createDedicatedChannel,
  joinCodeOf,
  joinTesters,
  outboundRows,
  send,
  settleUntil,
  startSendHarness,
  testerNumber,
  type Joined,
} from "./send-support";

let h: Harness;
let acme: Seeded;
let joined: Joined;
let documentId: string;

/** One tester per sandbox send below (pair pacing), plus one for reply_to by msg_ id. */
const CASES = [
  "text",
  "image",
  "document",
  "video",
  "audio",
  "button",
  "list",
  "cta_url",
  "cta_url_envelope",
  "location_request",
  "contact_info_request",
  "reaction",
  "location",
  "contacts",
  "sticker",
  "reply_provider_id",
  "reply_msg_id",
] as const;
type Case = (typeof CASES)[number];
/** The content types: the cases before the reply_to ones. */
type ContentCase = Exclude<Case, "reply_provider_id" | "reply_msg_id">;
const CONTENT_CASES = CASES.slice(0, 15) as ContentCase[];
const tester = Object.fromEntries(CASES.map((c) => [c, testerNumber()])) as Record<Case, string>;
/** A second tester per content type, for the test that sends them again and reads the provider's bodies. */
const bodyTester = Object.fromEntries(CONTENT_CASES.map((c) => [c, testerNumber()])) as Record<ContentCase, string>;
/** The statuses test's own tester. */
const STATUS_TESTER = testerNumber();
/** Message id → the case that sent it, for the status sweep. */
const sent = new Map<string, Case>();

beforeAll(async () => {
  h = await startSendHarness();
  acme = await h.app.seed();
  joined = await joinTesters(h, acme.key, await joinCodeOf(h, acme.projectId), [...Object.values(tester), ...Object.values(bodyTester), STATUS_TESTER]);
  const upload = await fetch(`${h.server.url}/api/simulator/customer/media?filename=terms.pdf`, {
    method: "POST",
    headers: { "content-type": "application/pdf" },
    body: "%PDF-1.4 terms",
  });
  documentId = ((await upload.json()) as { id: string }).id;
});
afterAll(() => h?.close());

function reply(which: Case, content: Record<string, unknown>, to = tester[which]) {
  return send(h, acme.key, { channel_id: SANDBOX_CHANNEL_ID, conversation_id: joined.conversations[to], ...content });
}

/** The Cloud API body the simulator received for this tester (the last business message). */
function providerBodyOf(which: Case, to = tester[which]): Record<string, unknown> | undefined {
  return h.server.simulator.state.inbox(SANDBOX_PHONE_NUMBER_ID, to).at(-1)?.body;
}

async function accepted(which: Case, content: Record<string, unknown>, to = tester[which]) {
  const res = await reply(which, content, to);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  sent.set(res.body.id, which);
  return res;
}

/** What each content type sends; `to` is the tester, whose join message the list and reaction quote. */
function contentOf(which: ContentCase, to: string): Record<string, unknown> {
  switch (which) {
    case "text":
      return { text: "Hello from svc" };
    case "image":
      return { media: { type: "image", link: "https://cdn.example.com/cat.jpg", caption: "A cat" } };
    case "document":
      return { media: { type: "document", id: documentId, filename: "terms.pdf", caption: "Our terms" } };
    case "video":
      return { media: { type: "video", link: "https://cdn.example.com/clip.mp4" } };
    case "audio":
      return { media: { type: "audio", link: "https://cdn.example.com/voice.ogg" } };
    case "button":
      return {
        interactive: {
          type: "button",
          header: "Delivery",
          body: "Pick a slot",
          footer: "Reply anytime",
          buttons: [
            { id: "am", title: "Morning" },
            { id: "pm", title: "Afternoon" },
          ],
        },
      };
    case "list":
      return {
        reply_to: joined.joinWamids[to],
        interactive: {
          type: "list",
          body: "Choose a size",
          button: "Sizes",
          sections: [
            {
              title: "Shirts",
              rows: [
                { id: "s", title: "Small", description: "Fits 36" },
                { id: "m", title: "Medium" },
              ],
            },
          ],
        },
      };
    case "cta_url":
      return { interactive: { type: "cta_url", body: "Track your order", display_text: "Track", url: "https://shop.example.com/track/42" } };
    case "cta_url_envelope":
      return {
        interactive: {
          type: "cta_url",
          body: "Read the FAQ",
          action: { name: "cta_url", parameters: { display_text: "FAQ", url: "https://shop.example.com/faq" } },
        },
      };
    case "location_request":
      return { interactive: { type: "location_request_message", body: "Where should we deliver?" } };
    case "contact_info_request":
      return { interactive: { type: "request_contact_info", body: "May we have your details?" } };
    case "reaction":
      return { reaction: { message_id: joined.joinWamids[to], emoji: "👍" } };
    case "location":
      return { location: { latitude: 52.52, longitude: 13.405, name: "Store", address: "Alexanderplatz 1, Berlin" } };
    case "contacts":
      return {
        contacts: [
          {
            name: { formatted_name: "Ana Diaz", first_name: "Ana", last_name: "Diaz" },
            phones: [{ phone: "+14155550123", type: "WORK", wa_id: "14155550123" }],
            emails: [{ email: "ana@example.com", type: "WORK" }],
          },
        ],
      };
    case "sticker":
      return { sticker: { link: "https://cdn.example.com/sticker.webp" } };
  }
}

describe("POST /messages: every content type on PLATFORM_A", () => {
  it("text: 200 with exactly {object, id, status: queued, conversation_id, contact_id, idempotency_key} and no structured content", async () => {
    const res = await accepted("text", { text: "Hello from svc" });
    expect(Object.keys(res.body).sort()).toEqual(RESPONSE_FIELDS);
    const conversation = await h.app.call("GET", `/conversations/${joined.conversations[tester.text]}`, { key: acme.key });
    expect(res.body).toEqual({
      object: "message",
      id: expect.stringMatching(/^msg_/),
      status: "queued",
      conversation_id: joined.conversations[tester.text],
      contact_id: conversation.body.contact_id,
      idempotency_key: expect.stringMatching(/^idem_/),
      ...Object.fromEntries(CONTENT_FIELDS.map((field) => [field, null])),
    });
  });

  it("every other content type is accepted", async () => {
    for (const which of CONTENT_CASES.filter((c) => c !== "text")) await accepted(which, contentOf(which, tester[which]));
  });

  it("the provider received the exact Cloud API body for each", async () => {
    // Its own sends, to its own testers: this test reads only what it sent.
    for (const which of CONTENT_CASES) await accepted(which, contentOf(which, bodyTester[which]), bodyTester[which]);
    const providerBody = (which: ContentCase) => providerBodyOf(which, bodyTester[which]);
    await settleUntil(h, async () => CONTENT_CASES.every((c) => providerBody(c) !== undefined));
    const envelope = (which: ContentCase) => ({ messaging_product: "whatsapp", recipient_type: "individual", to: bodyTester[which] });
    expect(providerBody("text")).toEqual({ ...envelope("text"), type: "text", text: { body: "Hello from svc" } });
    expect(providerBody("image")).toEqual({ ...envelope("image"), type: "image", image: { link: "https://cdn.example.com/cat.jpg", caption: "A cat" } });
    expect(providerBody("document")).toEqual({
      ...envelope("document"),
      type: "document",
      document: { id: documentId, caption: "Our terms", filename: "terms.pdf" },
    });
    expect(providerBody("video")).toEqual({ ...envelope("video"), type: "video", video: { link: "https://cdn.example.com/clip.mp4" } });
    expect(providerBody("audio")).toEqual({ ...envelope("audio"), type: "audio", audio: { link: "https://cdn.example.com/voice.ogg" } });
    expect(providerBody("button")).toEqual({
      ...envelope("button"),
      type: "interactive",
      interactive: {
        type: "button",
        header: { type: "text", text: "Delivery" },
        body: { text: "Pick a slot" },
        action: {
          buttons: [
            { type: "reply", reply: { id: "am", title: "Morning" } },
            { type: "reply", reply: { id: "pm", title: "Afternoon" } },
          ],
        },
        footer: { text: "Reply anytime" },
      },
    });
    expect(providerBody("list")).toEqual({
      ...envelope("list"),
      type: "interactive",
      interactive: {
        type: "list",
        body: { text: "Choose a size" },
        action: {
          button: "Sizes",
          sections: [
            {
              title: "Shirts",
              rows: [
                { id: "s", title: "Small", description: "Fits 36" },
                { id: "m", title: "Medium" },
              ],
            },
          ],
        },
      },
      context: { message_id: joined.joinWamids[bodyTester.list] },
    });
    expect(providerBody("cta_url")).toEqual({
      ...envelope("cta_url"),
      type: "interactive",
      interactive: {
        type: "cta_url",
        body: { text: "Track your order" },
        action: { name: "cta_url", parameters: { display_text: "Track", url: "https://shop.example.com/track/42" } },
      },
    });
    expect(providerBody("cta_url_envelope")).toEqual({
      ...envelope("cta_url_envelope"),
      type: "interactive",
      interactive: {
        type: "cta_url",
        body: { text: "Read the FAQ" },
        action: { name: "cta_url", parameters: { display_text: "FAQ", url: "https://shop.example.com/faq" } },
      },
    });
    expect(providerBody("location_request")).toEqual({
      ...envelope("location_request"),
      type: "interactive",
      interactive: { type: "location_request_message", body: { text: "Where should we deliver?" }, action: { name: "send_location" } },
    });
    expect(providerBody("contact_info_request")).toEqual({
      ...envelope("contact_info_request"),
      type: "interactive",
      interactive: { type: "request_contact_info", body: { text: "May we have your details?" }, action: { name: "request_contact_info" } },
    });
    expect(providerBody("reaction")).toEqual({
      ...envelope("reaction"),
      type: "reaction",
      reaction: { message_id: joined.joinWamids[bodyTester.reaction], emoji: "👍" },
    });
    expect(providerBody("location")).toEqual({
      ...envelope("location"),
      type: "location",
      location: { latitude: 52.52, longitude: 13.405, name: "Store", address: "Alexanderplatz 1, Berlin" },
    });
    expect(providerBody("contacts")).toEqual({
      ...envelope("contacts"),
      type: "contacts",
      contacts: [
        {
          name: { formatted_name: "Ana Diaz", first_name: "Ana", last_name: "Diaz" },
          phones: [{ phone: "+14155550123", type: "WORK", wa_id: "14155550123" }],
          emails: [{ email: "ana@example.com", type: "WORK" }],
        },
      ],
    });
    expect(providerBody("sticker")).toEqual({ ...envelope("sticker"), type: "sticker", sticker: { link: "https://cdn.example.com/sticker.webp" } });
  });
});

describe("reply_to", () => {
  it("a provider message id is sent as context.message_id", async () => {
    const wamid = joined.joinWamids[tester.reply_provider_id]!;
    await accepted("reply_provider_id", { reply_to: wamid, text: "Answering your message" });
    await settleUntil(h, async () => providerBodyOf("reply_provider_id") !== undefined);
    expect(providerBodyOf("reply_provider_id")).toMatchObject({ type: "text", text: { body: "Answering your message" }, context: { message_id: wamid } });
  });

  it("one of our msg_ ids is resolved to its provider id", async () => {
    const history = await h.app.call("GET", `/conversations/${joined.conversations[tester.reply_msg_id]}/messages`, { key: acme.key });
    const inbound = (history.body.data as { id: string; direction: string; platform_message_id: string }[]).find((m) => m.direction === "inbound")!;
    expect(inbound.platform_message_id).toBe(joined.joinWamids[tester.reply_msg_id]);
    const res = await accepted("reply_msg_id", { reply_to: inbound.id, text: "Quoting by our id" });
    expect((await h.messageRow(res.body.id)).replyTo).toBe(inbound.platform_message_id);
    await settleUntil(h, async () => providerBodyOf("reply_msg_id") !== undefined);
    expect(providerBodyOf("reply_msg_id")).toMatchObject({ type: "text", context: { message_id: inbound.platform_message_id } });
  });

  it("an unknown msg_ id is 404 and writes nothing", async () => {
    const before = (await outboundRows(h, acme.projectId)).length;
    const res = await reply("text", { reply_to: "msg_01JUNKNOWNUNKNOWNUNKNOWN00", text: "Quoting nothing" });
    expectError(res, 404, "not_found");
    expect((await outboundRows(h, acme.projectId)).length).toBe(before);
  });
});

describe("statuses", () => {
  it("every sandbox send moves to read through the provider's callbacks; none fails", async () => {
    await accepted("text", { text: "Hello from svc" }, STATUS_TESTER);
    const done = await settleUntil(h, async () => (await outboundRows(h, acme.projectId)).every((row) => row.status === "read"), 15_000);
    const rows = await outboundRows(h, acme.projectId);
    expect(rows.length).toBe(sent.size);
    expect(Object.fromEntries(rows.map((row) => [sent.get(row.id), row.status]))).toEqual(Object.fromEntries([...sent.values()].map((c) => [c, "read"])));
    expect(done).toBe(true);
    for (const row of rows) {
      expect(row.platformMessageId).toMatch(/^wamid\./);
      expect(row.failure).toBeNull();
    }
    const statuses = (await h.eventsOf(acme.projectId, "message.status")).map((e) => e.payload as { message_id: string; status: string });
    for (const id of sent.keys()) expect(statuses.filter((s) => s.message_id === id).map((s) => s.status)).toEqual(["sent", "delivered", "read"]);
  });
});

describe("templates", () => {
  it("the shared sandbox refuses templates: 412 channel_not_ready with SANDBOX_TEMPLATES_NOT_SUPPORTED", async () => {
    const res = await reply("text", { template: { name: "order_update", language: "en_US" } });
    expectError(res, 412, "channel_not_ready");
    expect(res.body.blockers).toEqual(["SANDBOX_TEMPLATES_NOT_SUPPORTED"]);
  });

  it("a template {name, language} on a dedicated PLATFORM_A channel reaches the provider and is read", async () => {
    // Its own project: the statuses test counts every outbound message of acme's.
    const acme = await h.app.seed({ orgName: "Templates" });
    const channel = await createDedicatedChannel(h, acme.key);
    const phone = testerNumber();
    const contact = await h.app.call("POST", "/contacts", { key: acme.key, body: { phone: `+${phone}`, channel_id: channel.id, opt_in: true } });
    expect(contact.status).toBe(200);
    const components = [{ type: "body", parameters: [{ type: "text", text: "42" }] }];
    const res = await send(h, acme.key, { channel_id: channel.id, to: `+${phone}`, template: { name: "order_update", language: "en_US", components } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ object: "message", status: "queued", contact_id: contact.body.id });

    expect(await settleUntil(h, async () => (await h.messageRow(res.body.id)).status === "read", 10_000)).toBe(true);
    expect(h.server.simulator.state.inbox(channel.phoneNumberId, phone).at(-1)?.body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: phone,
      type: "template",
      template: { name: "order_update", language: { code: "en_US" }, components },
    });
  });
});

describe("templates by id", () => {
  it("an id names no stored template yet: 404 before anything is written or sent", async () => {
    const { startHarness } = await import("./support");
    const h = await startHarness();
    try {
      const seeded = await h.app.seed();
      const channel = await h.app.call("POST", "/channels", {
        key: seeded.key,
        body: { platform: "PLATFORM_A", credentials: { phone_number_id: "7700112233", business_account_id: "8800112233", access_token: "tok" } },
      });
      await h.app.call("POST", "/contacts", { key: seeded.key, body: { phone: "+14155550777" } });
      const res = await h.app.call("POST", "/messages", {
        key: seeded.key,
        body: { channel_id: channel.body.id, to: "+14155550777", template: { id: "tmpl_missing" } },
      });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: "not_found", issues: { "template.id": ["Unknown template."] } });
      expect(h.server.simulator.state.allSent()).toHaveLength(0);
    } finally {
      await h.close();
    }
  });
});
