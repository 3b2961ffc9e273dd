/**
 * The Message object carries its structured content (interactive, location, contacts, template,
 * reaction, sticker) for outbound AND inbound messages, on every read: the POST /messages response,
 * GET /messages, GET /messages/{id} and GET /conversations/{id}/messages. Outbound content reads back
 * in the send request's shape (normalized); inbound in message.received's messages[] item shape.
 * Every content field is always present and null unless it is the message's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { idempotencyKeys } from "@/lib/db/schema";
import { unseal } from "@/lib/crypto/secrets";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { contentFieldsOf } from "@/lib/domain/messages/serialize";
import type { Seeded } from "../support/app";
import { expectError } from "../support/wire";
import { FIXTURE_A, FIXTURE_C, adapted, connectChannel, deliver, enablePlatforms, envelopeM, rowByProviderId } from "../ingest/harness";
import type { Harness } from "./support";
import {
  CONTENT_FIELDS,
  RESPONSE_FIELDS,
  createDedicatedChannel,
  joinCodeOf,
  joinTesters,
  send,
  startSendHarness,
  testerNumber,
  type Joined,
} from "./send-support";

type Payload = Record<string, any>;
type Field = (typeof CONTENT_FIELDS)[number];

let h: Harness;
let acme: Seeded;
let beta: Seeded;
let joined: Joined;
let betaChannel = "";

/** One sandbox tester per outbound case (pair pacing: one new message per 6 s per recipient). */
const CASES = ["location", "button", "list", "cta_url", "contacts", "reaction", "sticker", "replay"] as const;
type Case = (typeof CASES)[number];
const tester = Object.fromEntries(CASES.map((c) => [c, testerNumber()])) as Record<Case, string>;

beforeAll(async () => {
  h = await startSendHarness();
  acme = await h.app.seed();
  beta = await h.app.seed({ orgName: "Beta", projectName: "Beta main" });
  joined = await joinTesters(h, acme.key, await joinCodeOf(h, acme.projectId), Object.values(tester));
  betaChannel = (
    await connectChannel(h, beta, {
      platform: "PLATFORM_A",
      display_name: "Beta",
      phone_number: FIXTURE_A.phoneNumber,
      credentials: { phone_number_id: FIXTURE_A.phoneNumberId, business_account_id: FIXTURE_A.waba, access_token: "beta-token" },
    })
  ).id;
});
afterAll(() => h?.close());

function reply(which: Case, content: Record<string, unknown>, headers?: Record<string, string>) {
  return send(h, acme.key, { channel_id: SANDBOX_CHANNEL_ID, conversation_id: joined.conversations[tester[which]], ...content }, headers);
}

/** Every content field null except `field` (the message's own). */
function onlyContent(field: Field | null, value?: unknown) {
  return Object.fromEntries(CONTENT_FIELDS.map((f) => [f, f === field ? value : null]));
}

/** The message on every read: GET /messages/{id}, in GET /messages and in its conversation's messages. Returns the single GET's body. */
async function readBack(key: string, id: string): Promise<Payload> {
  const single = await h.app.call("GET", `/messages/${id}`, { key });
  expect(single.status, JSON.stringify(single.body)).toBe(200);
  const list = await h.app.call("GET", "/messages?limit=100", { key });
  expect(list.status).toBe(200);
  const listed = (list.body.data as Payload[]).find((m) => m.id === id);
  expect(listed, `GET /messages lists ${id}`).toBeDefined();
  const thread = await h.app.call("GET", `/conversations/${single.body.conversation_id}/messages?limit=100`, { key });
  const inThread = (thread.body.data as Payload[]).find((m) => m.id === id);
  for (const field of CONTENT_FIELDS) {
    expect(listed![field], `GET /messages ${field}`).toEqual(single.body[field]);
    expect(inThread![field], `conversation messages ${field}`).toEqual(single.body[field]);
  }
  return single.body;
}

/** Sends, checks the POST response and every read carry exactly `field` = `expected`; returns the single GET's body. */
async function sentAndReadBack(which: Case, content: Record<string, unknown>, field: Field, expected: unknown): Promise<Payload> {
  const res = await reply(which, content);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(RESPONSE_FIELDS);
  expect(res.body).toMatchObject(onlyContent(field, expected));
  const message = await readBack(acme.key, res.body.id);
  expect(message).toMatchObject({ direction: "outbound", ...onlyContent(field, expected) });
  return message;
}

describe("outbound: what POST /messages sent reads back with its content", () => {
  it("location: latitude and longitude (and name, address)", async () => {
    const location = { latitude: 52.52, longitude: 13.405, name: "Store", address: "Alexanderplatz 1, Berlin" };
    const message = await sentAndReadBack("location", { location }, "location", location);
    expect(message).toMatchObject({ type: "location", content: "Store" });
  });

  it("interactive buttons, normalized as sent (string header → text header object, {text} body → string)", async () => {
    const sentButtons = {
      type: "button",
      header: "Delivery",
      body: { text: "Pick a slot" },
      footer: "Reply anytime",
      buttons: [
        { id: "am", title: "Morning" },
        { id: "pm", title: "Afternoon" },
      ],
    };
    await sentAndReadBack("button", { interactive: sentButtons }, "interactive", {
      type: "button",
      header: { type: "text", text: "Delivery" },
      body: "Pick a slot",
      footer: "Reply anytime",
      buttons: [
        { id: "am", title: "Morning" },
        { id: "pm", title: "Afternoon" },
      ],
    });
  });

  it("interactive list: button label and every section's rows", async () => {
    const list = {
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
    };
    await sentAndReadBack("list", { interactive: list }, "interactive", list);
  });

  it("interactive cta_url given as the provider envelope reads back in the top-level form", async () => {
    const cta = {
      type: "cta_url",
      body: "Read the FAQ",
      action: { name: "cta_url", parameters: { display_text: "FAQ", url: "https://shop.example.com/faq" } },
    };
    const message = await sentAndReadBack("cta_url", { interactive: cta }, "interactive", {
      type: "cta_url",
      body: "Read the FAQ",
      display_text: "FAQ",
      url: "https://shop.example.com/faq",
    });
    expect(message.interactive).not.toHaveProperty("action");
  });

  it("contacts: the cards as sent", async () => {
    const contacts = [
      {
        name: { formatted_name: "Ana Diaz", first_name: "Ana", last_name: "Diaz" },
        phones: [{ phone: "+14155550123", type: "WORK", wa_id: "14155550123" }],
        emails: [{ email: "ana@example.com" }],
      },
    ];
    await sentAndReadBack("contacts", { contacts }, "contacts", contacts);
  });

  it("reaction: the reacted-to provider id and the emoji", async () => {
    const reaction = { message_id: joined.joinWamids[tester.reaction]!, emoji: "👍" };
    await sentAndReadBack("reaction", { reaction }, "reaction", reaction);
  });

  it("sticker: {link} as sent, and no media", async () => {
    const message = await sentAndReadBack("sticker", { sticker: { link: "https://cdn.example.com/sticker.webp" } }, "sticker", {
      link: "https://cdn.example.com/sticker.webp",
    });
    expect(message).toMatchObject({ type: "sticker", media: null });
  });

  it("template: {name, language, components} on a dedicated PLATFORM_A channel", async () => {
    const channel = await createDedicatedChannel(h, acme.key);
    const phone = `+${testerNumber()}`;
    expect((await h.app.call("POST", "/contacts", { key: acme.key, body: { phone, channel_id: channel.id, opt_in: true } })).status).toBe(200);
    const template = { name: "order_update", language: "en_US", components: [{ type: "body", parameters: [{ type: "text", text: "42" }] }] };
    const res = await send(h, acme.key, { channel_id: channel.id, to: phone, template });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject(onlyContent("template", template));
    expect(await readBack(acme.key, res.body.id)).toMatchObject({ type: "template", ...onlyContent("template", template) });
  });

  it("a replayed send (same Idempotency-Key) answers with the content too, also when only the message row remembers the key", async () => {
    const location = { latitude: -33.8568, longitude: 151.2153, name: "Opera House" };
    const headers = { "Idempotency-Key": `content-${testerNumber()}` };
    const first = await reply("replay", { location }, headers);
    expect(first.status).toBe(200);
    // The answer is stored with the message (one statement), sealed like every stored answer.
    const [record] = await h.app.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.projectId, acme.projectId), eq(idempotencyKeys.key, headers["Idempotency-Key"])));
    expect(record).toMatchObject({ state: "completed", responseStatus: 200, lockedUntil: null });
    expect(JSON.stringify(record!.responseBody)).not.toContain("Opera House");
    expect(JSON.parse(unseal((record!.responseBody as { sealed: string }).sealed))).toEqual(first.body);
    const replayed = await reply("replay", { location }, headers);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.body).toEqual(first.body);
    // Without the API's idempotency record, the send verb finds the message by its key.
    await h.app.db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.projectId, acme.projectId), eq(idempotencyKeys.key, headers["Idempotency-Key"])));
    const found = await reply("replay", { location }, headers);
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body).toEqual(first.body);
    expect(found.body.location).toEqual(location);
    // The key's message answers before any check, even for a channel the project cannot see.
    await h.app.db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.projectId, acme.projectId), eq(idempotencyKeys.key, headers["Idempotency-Key"])));
    const elsewhere = await send(h, acme.key, { channel_id: "ch_unknown", conversation_id: joined.conversations[tester.replay], location }, headers);
    expect(elsewhere.status, JSON.stringify(elsewhere.body)).toBe(200);
    expect(elsewhere.body).toEqual(first.body);
    // Without the key, the same unknown channel is a 404.
    const unknown = await send(h, acme.key, { channel_id: "ch_unknown", conversation_id: joined.conversations[tester.replay], location });
    expect(unknown.status).toBe(404);
  });

  it("text and media messages carry no structured content", async () => {
    const list = await h.app.call("GET", "/messages?limit=100", { key: acme.key });
    const texts = (list.body.data as Payload[]).filter((m) => m.type === "text");
    expect(texts.length).toBeGreaterThan(0);
    for (const message of texts) expect(message).toMatchObject(onlyContent(null));
  });
});

describe("inbound: the provider's items read back with their content (fixtures verbatim, dedicated PLATFORM_A channel)", () => {
  async function stored(name: string): Promise<Payload> {
    await deliver(h, "platform-a", adapted(name));
    const providerId = adapted(name).entry[0].changes[0].value.messages[0].id as string;
    const [row] = await rowByProviderId(h, betaChannel, providerId);
    expect(row, `${name} is stored`).toBeDefined();
    const message = await readBack(beta.key, row!.id);
    expect(message).toMatchObject({ direction: "inbound", platform_message_id: providerId });
    return message;
  }

  it("location: coordinates, name, address", async () => {
    const message = await stored("platform-a-location");
    expect(message).toMatchObject({
      type: "location",
      ...onlyContent("location", {
        latitude: 37.483872693672,
        longitude: -122.14835165083,
        name: "Meta Headquarters",
        address: "1 Hacker Way, Menlo Park, CA 94025",
      }),
    });
    expect(message.location).toHaveProperty("url");
  });

  it("contacts: the full cards", async () => {
    const message = await stored("platform-a-contacts");
    expect(message.type).toBe("contacts");
    expect(message.contacts[0]).toMatchObject({ name: { formatted_name: "Pablo Morales" }, birthday: "1999-01-23", org: { company: "Lucky Shrub" } });
    expect(message.contacts[0].phones).toHaveLength(2);
    expect(message).toMatchObject(onlyContent("contacts", message.contacts));
  });

  it("interactive replies: button_reply, list_reply, template quick-reply button", async () => {
    expect(await stored("platform-a-button-reply")).toMatchObject({
      type: "interactive",
      ...onlyContent("interactive", {
        type: "button_reply",
        id: "cancel-button",
        title: "Cancel",
        description: null,
        payload: null,
        response: null,
        flow_token: null,
      }),
    });
    expect((await stored("platform-a-list-reply")).interactive).toMatchObject({
      type: "list_reply",
      id: "priority_express",
      description: "Next Day to 2 Days",
    });
    expect((await stored("platform-a-template-button")).interactive).toMatchObject({ type: "button", payload: "STOP_PROMOTIONS", title: "Stop promotions" });
  });

  it("reaction: the reacted-to provider id and the emoji", async () => {
    expect(await stored("platform-a-reaction")).toMatchObject({
      type: "reaction",
      ...onlyContent("reaction", { message_id: "wamid.HBgLMTU1NTA3ODM4ODEVAgASGBRCSVowMDAwMDAwMDAwMDAwMDAwQQA=", emoji: "👍" }),
    });
  });

  it("sticker: the file in media (type sticker, animated), as in message.received; sticker stays null", async () => {
    const message = await stored("platform-a-sticker");
    expect(message).toMatchObject({ type: "sticker", media: { type: "sticker", provider_media_id: "924513879318405", animated: true }, ...onlyContent(null) });
  });

  it("PLATFORM_C quick replies and postbacks read back as interactive replies", async () => {
    const gamma = await h.app.seed({ orgName: "Gamma", projectName: "Gamma main" });
    await enablePlatforms(h, gamma.orgId);
    const page = (
      await connectChannel(h, gamma, { platform: "PLATFORM_C", display_name: "Page", credentials: { page_id: FIXTURE_C.pageId, access_token: "page-token" } })
    ).id;
    const at = Date.now();
    const mid = `m_quick_${at}`;
    await deliver(
      h,
      "platform-c",
      envelopeM("PLATFORM_C", FIXTURE_C.pageId, [
        {
          sender: { id: "5023436377684981" },
          recipient: { id: FIXTURE_C.pageId },
          timestamp: at,
          message: { mid, text: "Red", quick_reply: { payload: "COLOR_RED" } },
        },
      ]),
    );
    const [row] = await rowByProviderId(h, page, mid);
    expect(row).toBeDefined();
    const message = await readBack(gamma.key, row!.id);
    expect(message).toMatchObject({ type: "interactive", interactive: { type: "quick_reply", payload: "COLOR_RED" } });
  });
});

describe("GET /messages and GET /messages/{id}", () => {
  it("another project's message is a 404, and its list never shows it", async () => {
    const acmeList = await h.app.call("GET", "/messages?limit=100", { key: acme.key });
    const someAcme = (acmeList.body.data as Payload[])[0]!;
    expectError(await h.app.call("GET", `/messages/${someAcme.id}`, { key: beta.key }), 404, "not_found");
    const betaList = await h.app.call("GET", "/messages?limit=100", { key: beta.key });
    expect((betaList.body.data as Payload[]).some((m) => m.id === someAcme.id)).toBe(false);
  });

  it("pages newest first with limit and starting_after", async () => {
    const first = await h.app.call("GET", "/messages?limit=2", { key: acme.key });
    expect(first.body).toMatchObject({ object: "list", has_more: true });
    expect(first.body.data).toHaveLength(2);
    const next = await h.app.call("GET", `/messages?limit=2&starting_after=${first.body.data[1].id}`, { key: acme.key });
    expect(next.body.data[0].id < first.body.data[1].id).toBe(true);
  });

  it("needs conversations:read", async () => {
    const key = await h.app.addKey(acme, ["messages:send"]);
    const res = await h.app.call("GET", "/messages", { key });
    expectError(res, 403, "insufficient_scope");
    expect(res.body.required_scope).toBe("conversations:read");
  });
});

describe("the stored content after edits and deletes", () => {
  it("a revoked message reads back with every content field null", () => {
    expect(contentFieldsOf({ id: "wamid.X", type: "location", revoked: true, revoke_id: "wamid.Y" })).toEqual(onlyContent(null));
  });

  it("an edited inbound message keeps its structured content", () => {
    const location = { latitude: 1, longitude: 2, name: null, address: null, url: null };
    expect(contentFieldsOf({ id: "wamid.X", type: "location", text: "new", location, edited: true })).toEqual(onlyContent("location", location));
  });
});

describe("OpenAPI", () => {
  it("documents the six content fields on Message and on the send response, each nullable", async () => {
    const { buildOpenApiDocument } = await import("@/lib/api/openapi");
    const { apiRoutes } = await import("@/lib/api/registry");
    const doc = buildOpenApiDocument(apiRoutes) as {
      components: { schemas: Record<string, { properties: Record<string, { anyOf?: unknown[] }>; required: string[] }> };
    };
    for (const schema of ["Message", "MessageSendResponse"]) {
      const { properties, required } = doc.components.schemas[schema]!;
      for (const field of CONTENT_FIELDS) {
        expect(required, `${schema}.${field} required`).toContain(field);
        expect(properties[field]!.anyOf, `${schema}.${field}`).toContainEqual({ type: "null" });
      }
      expect(properties.interactive!.anyOf).toEqual(
        expect.arrayContaining([{ $ref: "#/components/schemas/InteractiveButtonMessage" }, { $ref: "#/components/schemas/InboundInteractive" }]),
      );
      expect(properties.location!.anyOf).toEqual(
        expect.arrayContaining([{ $ref: "#/components/schemas/OutboundLocation" }, { $ref: "#/components/schemas/InboundLocation" }]),
      );
    }
  });
});
