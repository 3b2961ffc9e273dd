import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { contacts, events, inboundWebhooks, messages } from "@/lib/db/schema";
import { processInboundWebhook } from "@/lib/domain/ingest/process";
import { newId } from "@/lib/ids";
import { SANDBOX_CHANNEL_ID, SANDBOX_PHONE_NUMBER, SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import type { Seeded } from "../support/app";
import {
  FIXTURE_A,
  adapted,
  deliver,
  expectReceivedShape,
  expectUncachedMedia,
  joinSandbox,
  messageCount,
  receivedEvent,
  receivedFor,
  rowByProviderId,
  startHarness,
  textA,
  type Harness,
} from "./harness";

/**
 * The ingest path end to end, for every inbound type of the spec's message.received table: provider
 * webhook (signed, over HTTP) → stored envelope → job → normalise → apply → Message row + event row.
 * First through the shared sandbox with the simulator acting as the customer, then with the provider's
 * own payloads (tests/fixtures/provider) on a dedicated channel.
 */
let h: Harness;
let acme: Seeded;
/** The dedicated-channel project of the current test (freshBeta), with its own phone number id. */
let beta: Seeded;
let betaChannel = "";
let betaPhoneNumberId = "";
let betaSerial = 0;
const TESTER = "15552220001";
type Payload = Record<string, any>;

beforeAll(async () => {
  h = await startHarness();
  acme = await h.app.seed();
  await joinSandbox(h, acme.projectId, TESTER);
});
afterAll(() => h?.close());

/**
 * A new project with a dedicated PLATFORM_A channel, for each test that reads the provider's own
 * payloads: messages are unique per channel and fixtures carry fixed provider ids, so a channel shared
 * between tests would make each depend on what the earlier ones delivered.
 */
async function freshBeta() {
  betaSerial += 1;
  beta = await h.app.seed({ orgName: `Beta ${betaSerial}`, projectName: "Beta main" });
  betaPhoneNumberId = `${FIXTURE_A.phoneNumberId}${betaSerial}`;
  const res = await h.app.call("POST", "/channels", {
    key: beta.key,
    body: {
      platform: "PLATFORM_A",
      display_name: "Beta",
      phone_number: FIXTURE_A.phoneNumber,
      credentials: { phone_number_id: betaPhoneNumberId, business_account_id: FIXTURE_A.waba, access_token: "beta-token" },
    },
  });
  expect(res.status).toBe(200);
  betaChannel = res.body.id;
}

/** A provider fixture (tests/fixtures/provider) addressed to the current test's dedicated channel. */
const toBeta = (name: string, swaps: Record<string, string> = {}) => adapted(name, { [FIXTURE_A.phoneNumberId]: betaPhoneNumberId, ...swaps });

const flush = () => h.app.runtime.ports.queue.drain();

/** The customer sends through the simulator; returns the provider id, the stored row and the event. */
async function customer(input: Record<string, unknown>) {
  const sent = await h.customer({ from: TESTER, name: "Ana", ...input });
  expect(sent.delivered_status).toBe(200);
  await flush();
  const event = await receivedEvent(h, acme.projectId, sent.message_id);
  const p = expectReceivedShape(event.payload as Payload);
  const rows = await rowByProviderId(h, SANDBOX_CHANNEL_ID, sent.message_id);
  expect(rows).toHaveLength(1);
  const row = rows[0]!;
  expect(row).toMatchObject({
    direction: "inbound",
    status: "delivered",
    channelId: SANDBOX_CHANNEL_ID,
    projectId: acme.projectId,
    platformMessageId: sent.message_id,
  });
  // The event names the stored row, its conversation and contact, the sandbox and the joined project.
  expect(p).toMatchObject({
    agent_id: acme.projectId,
    organization_id: acme.orgId,
    channel_id: SANDBOX_CHANNEL_ID,
    conversation_id: row.conversationId,
    contact_id: row.contactId,
    from: `+${TESTER}`,
    message_id: row.id,
    type: row.type,
    ai_handoff: { status: "AI_ACTIVE", reason: null, handoff_at: null, is_on_hold: false },
    contact_reference: row.contactId,
    customer_reference: row.contactId,
    metadata: { platform: "PLATFORM_A", provider_message_id: sent.message_id, display_phone_number: SANDBOX_PHONE_NUMBER, profile_name: "Ana" },
  });
  expect(p.messages[0]).toMatchObject({ id: sent.message_id, type: row.type, received_at: row.timestamp.toISOString() });
  expect(event).toMatchObject({ deliver: true, route: "external" });
  return { id: sent.message_id, row, p, item: p.messages[0] as Payload };
}

describe("every inbound type through the sandbox (simulator as the customer)", () => {
  it("text", async () => {
    const { row, p, item } = await customer({ type: "text", text: "Hello there" });
    expect(row).toMatchObject({ type: "text", content: "Hello there", media: null, replyTo: null });
    expect(p).toMatchObject({ type: "text", text: "Hello there", assets: [], media: null, location: null });
    expect(p.user_id).toEqual(expect.any(String));
    expect(item).toEqual({
      id: item.id,
      type: "text",
      text: "Hello there",
      received_at: item.received_at,
      media: null,
      location: null,
      interactive: null,
      replied_to: null,
    });
    expect(Date.parse(item.received_at)).not.toBeNaN();
  });

  for (const [type, media, expected] of [
    ["image", { caption: "In blue", mime_type: "image/png" }, { mime_type: "image/png", caption: "In blue" }],
    ["audio", { voice: true, mime_type: "audio/ogg" }, { mime_type: "audio/ogg", voice: true }],
    ["video", { caption: "Unboxing", mime_type: "video/mp4" }, { mime_type: "video/mp4", caption: "Unboxing" }],
    [
      "document",
      { filename: "invoice.pdf", mime_type: "application/pdf", caption: "March" },
      { mime_type: "application/pdf", file_name: "invoice.pdf", caption: "March" },
    ],
    ["sticker", { animated: true, mime_type: "image/webp" }, { mime_type: "image/webp", animated: true }],
  ] as const) {
    it(`${type}: media cached from the simulator and announced with every media field`, async () => {
      const { row, p, item } = await customer({ type, media });
      expect(row).toMatchObject({ type, content: null });
      expect(p).toMatchObject({ type, text: null, location: null });
      expectUncachedMedia(p.media, { type, provider: "platform_a", message_id: row.id, ...expected });
      expect(p.media.provider_media_id).toEqual(expect.any(String));
      expect(p.media.platform_a_media_id).toBe(p.media.provider_media_id);
      expect(p.assets).toEqual([p.media]);
      expect(item.media).toEqual(p.media);
      expect(row.media).toEqual(p.media);
      const res = await h.app.call("GET", `/conversations/${row.conversationId}/messages`, { key: acme.key });
      // The simulator serves these files, so they are cached; reading the message signs a URL anew.
      expect(p.media.status).toBe("available");
      expect(res.body.data.find((m: Payload) => m.id === row.id).media).toMatchObject({
        type,
        status: "available",
        url: expect.stringContaining(`/api/v1/media/${p.media.id}/content?token=`),
        provider: "platform_a",
      });
    });
  }

  it("location: latitude and longitude at the top (no URL), the whole pin in the item", async () => {
    const location = { latitude: 37.4838, longitude: -122.1483, name: "HQ", address: "1 Hacker Way", url: "https://example.com/hq" };
    const { row, p, item } = await customer({ type: "location", location });
    expect(row).toMatchObject({ type: "location", content: "HQ" });
    expect(p.location).toEqual({ latitude: 37.4838, longitude: -122.1483, name: "HQ", address: "1 Hacker Way" });
    expect(item.location).toEqual(location);
    expect(p).toMatchObject({ media: null, assets: [] });
  });

  it("contacts: the full cards in the item", async () => {
    const card = {
      name: { formatted_name: "Pablo Morales", first_name: "Pablo", last_name: "Morales" },
      phones: [{ phone: "+1 650 555 1234", type: "WORK", wa_id: "16505551234" }],
      emails: [{ email: "pablo@example.com", type: "WORK" }],
      org: { company: "Lucky Shrub" },
    };
    const { row, p, item } = await customer({ type: "contacts", contacts: [card] });
    expect(row.type).toBe("contacts");
    expect(p.text).toBeNull();
    expect(item.contacts).toEqual([card]);
  });

  it("interactive button_reply and list_reply", async () => {
    const button = await customer({ type: "button_reply", reply: { id: "yes-1", title: "Yes" } });
    expect(button.p).toMatchObject({ type: "interactive", text: "Yes" });
    expect(button.item.interactive).toEqual({
      type: "button_reply",
      id: "yes-1",
      title: "Yes",
      description: null,
      payload: null,
      response: null,
      flow_token: null,
    });
    const list = await customer({ type: "list_reply", reply: { id: "express", title: "Express", description: "Next day" } });
    expect(list.item.interactive).toMatchObject({ type: "list_reply", id: "express", title: "Express", description: "Next day" });
    expect(list.row).toMatchObject({ type: "interactive", content: "Express" });
  });

  it("interactive flow completion (nfm_reply) carries the flow_token and the response", async () => {
    const { p, item } = await customer({ type: "flow_completion", flow: { flow_token: "svcft_TEST0001", response: { party_size: "4" } } });
    expect(p.type).toBe("interactive");
    expect(item.interactive).toMatchObject({ type: "nfm_reply", flow_token: "svcft_TEST0001", response: { party_size: "4", flow_token: "svcft_TEST0001" } });
  });

  it("template quick-reply button", async () => {
    const { p, item } = await customer({ type: "button", button: { payload: "STOP_PROMOTIONS", text: "Stop promotions" } });
    expect(p).toMatchObject({ type: "interactive", text: "Stop promotions" });
    expect(item.interactive).toMatchObject({ type: "button", title: "Stop promotions", payload: "STOP_PROMOTIONS" });
  });

  it("reaction names the message reacted to", async () => {
    const target = await customer({ type: "text", text: "react to me" });
    const { p, item, row } = await customer({ type: "reaction", reaction: { message_id: target.id, emoji: "👍" } });
    expect(row.type).toBe("reaction");
    expect(p).toMatchObject({ type: "reaction", text: "👍" });
    expect(item.reaction).toEqual({ message_id: target.id, emoji: "👍" });
  });

  it("system message", async () => {
    const { p, item } = await customer({ type: "system", system: { type: "customer_identity_changed", body: "Security code changed" } });
    expect(p).toMatchObject({ type: "system", text: "Security code changed" });
    expect(item.system).toMatchObject({ type: "customer_identity_changed", body: "Security code changed" });
  });

  it("unsupported: text null and {type, raw_type, errors:[{code, title, message, error_data}]}", async () => {
    const { p, item, row } = await customer({ type: "unsupported", unsupported: { type: "poll_creation" } });
    expect(row).toMatchObject({ type: "unsupported", content: null });
    expect(p).toMatchObject({ type: "unsupported", text: null });
    expect(item.text).toBeNull();
    expect(item.unsupported).toEqual({
      type: "poll_creation",
      raw_type: "unsupported",
      errors: [
        { code: 131051, title: "Message type unknown", message: "Message type unknown", error_data: { details: "Message type is currently not supported." } },
      ],
    });
  });

  it("a reply quotes the provider id of the quoted message and who sent it", async () => {
    const quoted = await customer({ type: "text", text: "first" });
    const { p, item, row } = await customer({ type: "text", text: "quoting", reply_to: quoted.id });
    expect(item.replied_to).toEqual({ message_id: quoted.id, from: expect.any(String) });
    expect(row.replyTo).toBe(quoted.id);
    expect(p.text).toBe("quoting");
  });

  it("edit: the stored original is updated (no new row); event type edit with its own message_id", async () => {
    const original = await customer({ type: "text", text: "Does it come in red?" });
    const rowsBefore = await messageCount(h);
    const sent = await h.customer({ from: TESTER, type: "edit", edit: { message_id: original.id, text: "Does it come in blue?" } });
    expect(sent.delivered_status).toBe(200);
    await flush();
    expect(await messageCount(h)).toBe(rowsBefore);
    const updated = await h.messageRow(original.row.id);
    expect(updated).toMatchObject({ content: "Does it come in blue?", status: "delivered" });
    expect(updated.editedAt).toBeInstanceOf(Date);

    const edits = (await h.eventsOf(acme.projectId, "message.received"))
      .map((e) => e.payload as Payload)
      .filter((p) => p.type === "edit" && p.messages[0].edit?.original_message_id === original.id);
    expect(edits).toHaveLength(1);
    const p = expectReceivedShape(edits[0]!);
    expect(p).toMatchObject({
      type: "edit",
      text: "Does it come in blue?",
      conversation_id: original.row.conversationId,
      contact_id: original.row.contactId,
      metadata: { stored_message_id: original.row.id },
    });
    // Receivers deduplicate on message_id: the edit must not look like the original delivered again.
    expect(p.message_id).not.toBe(original.p.message_id);
    expect(p.messages[0]).toMatchObject({
      type: "edit",
      text: "Does it come in blue?",
      edit: { original_message_id: original.id, message: { type: "text", text: { body: "Does it come in blue?" } } },
    });
  });

  it("revoke: the stored original's content is cleared and it becomes deleted; event type revoke", async () => {
    const original = await customer({ type: "image", media: { caption: "oops" } });
    const rowsBefore = await messageCount(h);
    await h.customer({ from: TESTER, type: "revoke", revoke: { message_id: original.id } });
    await flush();
    expect(await messageCount(h)).toBe(rowsBefore);
    const deleted = await h.messageRow(original.row.id);
    expect(deleted).toMatchObject({ content: null, media: null, status: "deleted" });
    expect(deleted.deletedAt).toBeInstanceOf(Date);
    expect(JSON.stringify(deleted.body)).not.toContain("oops");

    const revokes = (await h.eventsOf(acme.projectId, "message.received"))
      .map((e) => e.payload as Payload)
      .filter((p) => p.type === "revoke" && p.messages[0].revoke?.original_message_id === original.id);
    expect(revokes).toHaveLength(1);
    expect(expectReceivedShape(revokes[0]!)).toMatchObject({ type: "revoke", text: null, metadata: { stored_message_id: original.row.id } });
    expect(revokes[0]!.message_id).not.toBe(original.row.id);
  });
});

describe("provider retries never make a second row or event", () => {
  const post = (body: unknown) => deliver(h, "platform-a", body);
  const eventsCount = async () => (await h.app.db.select({ id: events.id }).from(events).where(eq(events.projectId, acme.projectId))).length;

  it("the same message delivery twice: one row, one message.received", async () => {
    const envelope = textA(SANDBOX_PHONE_NUMBER_ID, TESTER, "wamid.RETRY-A-0001", "only once");
    await post(envelope);
    const rows = await messageCount(h);
    const evs = await eventsCount();
    await post(envelope);
    await post(envelope);
    expect(await messageCount(h)).toBe(rows);
    expect(await eventsCount()).toBe(evs);
    expect(await receivedFor(h, acme.projectId, "wamid.RETRY-A-0001")).toHaveLength(1);
  });

  it("edits and revokes retried: applied once, one event each", async () => {
    const at = Math.floor(Date.now() / 1000);
    const edit = (id: string, body: string, ts: number) => ({
      object: "whatsapp_business_account",
      entry: [
        {
          id: "w",
          changes: [
            {
              field: "messages",
              value: {
                metadata: { phone_number_id: SANDBOX_PHONE_NUMBER_ID },
                contacts: [{ wa_id: TESTER, profile: { name: "Ana" } }],
                messages: [
                  {
                    from: TESTER,
                    id,
                    timestamp: String(ts),
                    type: "edit",
                    edit: { original_message_id: "wamid.RETRY-A-0002", message: { type: "text", text: { body } } },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    const revoke = {
      object: "whatsapp_business_account",
      entry: [
        {
          id: "w",
          changes: [
            {
              field: "messages",
              value: {
                metadata: { phone_number_id: SANDBOX_PHONE_NUMBER_ID },
                messages: [
                  {
                    from: TESTER,
                    id: "wamid.RETRY-A-REVOKE",
                    timestamp: String(at + 30),
                    type: "revoke",
                    revoke: { original_message_id: "wamid.RETRY-A-0002" },
                  },
                ],
              },
            },
          ],
        },
      ],
    };
    await post(textA(SANDBOX_PHONE_NUMBER_ID, TESTER, "wamid.RETRY-A-0002", "v1", at * 1000));
    const [original] = await rowByProviderId(h, SANDBOX_CHANNEL_ID, "wamid.RETRY-A-0002");

    await post(edit("wamid.RETRY-A-EDIT1", "v2", at + 10));
    await post(edit("wamid.RETRY-A-EDIT2", "v3", at + 20));
    // The provider retries the first edit after the second one was applied: nothing goes back.
    await post(edit("wamid.RETRY-A-EDIT1", "v2", at + 10));
    expect((await h.messageRow(original!.id)).content).toBe("v3");
    expect(await receivedFor(h, acme.projectId, "wamid.RETRY-A-EDIT1")).toHaveLength(1);
    expect(await receivedFor(h, acme.projectId, "wamid.RETRY-A-EDIT2")).toHaveLength(1);

    const evs = await eventsCount();
    await post(revoke);
    await post(revoke);
    expect(await eventsCount()).toBe(evs + 1);
    expect(await h.messageRow(original!.id)).toMatchObject({ status: "deleted", content: null });
    // An edit after the delete changes nothing.
    await post(edit("wamid.RETRY-A-EDIT3", "v4", at + 40));
    expect(await h.messageRow(original!.id)).toMatchObject({ status: "deleted", content: null });
    expect(await receivedFor(h, acme.projectId, "wamid.RETRY-A-EDIT3")).toHaveLength(0);
  });

  it("an edit delivered before its original waits for it (retried), then applies once", async () => {
    const at = Math.floor(Date.now() / 1000);
    const edit = {
      object: "whatsapp_business_account",
      entry: [
        {
          id: "w",
          changes: [
            {
              field: "messages",
              value: {
                metadata: { phone_number_id: SANDBOX_PHONE_NUMBER_ID },
                messages: [
                  {
                    from: TESTER,
                    id: "wamid.EARLY-EDIT",
                    timestamp: String(at + 5),
                    type: "edit",
                    edit: { original_message_id: "wamid.LATE-ORIGINAL", message: { type: "text", text: { body: "edited" } } },
                  },
                ],
              },
            },
          ],
        },
      ],
    };
    await post(edit);
    expect(await receivedFor(h, acme.projectId, "wamid.EARLY-EDIT")).toHaveLength(0);
    await post(textA(SANDBOX_PHONE_NUMBER_ID, TESTER, "wamid.LATE-ORIGINAL", "original", at * 1000));
    await new Promise((r) => setTimeout(r, 1100));
    await flush();
    const [row] = await rowByProviderId(h, SANDBOX_CHANNEL_ID, "wamid.LATE-ORIGINAL");
    expect(row!.content).toBe("edited");
    expect(await receivedFor(h, acme.projectId, "wamid.EARLY-EDIT")).toHaveLength(1);
  });
});

describe("the provider's own payloads on a dedicated PLATFORM_A channel (fixtures verbatim)", () => {
  const SHEENA = "16505551234";
  beforeEach(freshBeta);
  const post = (name: string) => deliver(h, "platform-a", toBeta(name));
  async function one(name: string) {
    await post(name);
    const providerId = toBeta(name).entry[0].changes[0].value.messages[0].id as string;
    const event = await receivedEvent(h, beta.projectId, providerId);
    const p = expectReceivedShape(event.payload as Payload);
    const [row] = await rowByProviderId(h, betaChannel, providerId);
    expect(row).toBeDefined();
    expect(p).toMatchObject({
      agent_id: beta.projectId,
      organization_id: beta.orgId,
      channel_id: betaChannel,
      message_id: row!.id,
      contact_id: row!.contactId,
      conversation_id: row!.conversationId,
    });
    expect(event).toMatchObject({ deliver: true, route: "external" });
    return { p, row: row!, item: p.messages[0] as Payload, providerId };
  }

  it("text, with the sender's number, business-scoped user id and profile name", async () => {
    const { p, row } = await one("platform-a-text");
    expect(p).toMatchObject({
      from: `+${SHEENA}`,
      user_id: "US.13491208655302741918",
      text: "Does it come in another color?",
      type: "text",
      metadata: { profile_name: "Sheena Nelson", display_phone_number: FIXTURE_A.phoneNumber },
    });
    expect(row.timestamp.toISOString()).toBe(new Date(1749416383 * 1000).toISOString());
    const [contact] = await h.app.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.projectId, beta.projectId), eq(contacts.id, row.contactId)));
    expect(contact).toMatchObject({ phone: `+${SHEENA}`, userId: "US.13491208655302741918", name: "Sheena Nelson", channelId: betaChannel });
  });

  for (const [name, type, expected] of [
    ["platform-a-image", "image", { mime_type: "image/jpeg", provider_media_id: "1003383421387256", caption: "This one, in blue" }],
    ["platform-a-audio-voice", "audio", { mime_type: "audio/ogg; codecs=opus", provider_media_id: "1185672402954210", voice: true }],
    ["platform-a-video", "video", { mime_type: "video/mp4", provider_media_id: "2274918263548291", caption: "Unboxing" }],
    ["platform-a-document", "document", { mime_type: "application/pdf", file_name: "invoice-2025-03.pdf", provider_media_id: "1642850149987745" }],
    ["platform-a-sticker", "sticker", { mime_type: "image/webp", provider_media_id: "924513879318405", animated: true }],
  ] as const) {
    it(`${type} (${name})`, async () => {
      const { p, row } = await one(name);
      expect(p).toMatchObject({ type, text: null });
      expectUncachedMedia(p.media, { type, provider: "platform_a", message_id: row.id, ...expected });
      expect(p.assets).toEqual([p.media]);
      expect(row.media).toEqual(p.media);
    });
  }

  it("location, contacts, button_reply, list_reply, flow completion, template button, reaction", async () => {
    expect((await one("platform-a-location")).p.location).toEqual({
      latitude: 37.483872693672,
      longitude: -122.14835165083,
      name: "Meta Headquarters",
      address: "1 Hacker Way, Menlo Park, CA 94025",
    });
    const cards = (await one("platform-a-contacts")).item.contacts;
    expect(cards[0]).toMatchObject({ name: { formatted_name: "Pablo Morales" }, birthday: "1999-01-23", org: { company: "Lucky Shrub" } });
    expect(cards[0].phones).toHaveLength(2);

    const button = await one("platform-a-button-reply");
    expect(button.item.interactive).toMatchObject({ type: "button_reply", id: "cancel-button", title: "Cancel" });
    expect(button.item.replied_to).toEqual({ message_id: "wamid.HBgLMTU1NTA3ODM4ODEVAgASGBRCSVowMDAwMDAwMDAwMDAwMDAwQQA=", from: "15550783881" });
    expect((await one("platform-a-list-reply")).item.interactive).toMatchObject({
      type: "list_reply",
      id: "priority_express",
      description: "Next Day to 2 Days",
    });
    const flow = await one("platform-a-flow-completion");
    expect(flow.item.interactive).toMatchObject({
      type: "nfm_reply",
      flow_token: "svcft_01JXK4QZ8N6T3W9R2M5B7C1D0E",
      response: { full_name: "Sheena Nelson", party_size: "4", dietary: ["vegetarian"] },
    });
    expect((await one("platform-a-template-button")).item.interactive).toMatchObject({ type: "button", payload: "STOP_PROMOTIONS", title: "Stop promotions" });
    const reaction = await one("platform-a-reaction");
    expect(reaction.p).toMatchObject({ type: "reaction", text: "👍" });
    expect(reaction.item.reaction).toEqual({ message_id: "wamid.HBgLMTU1NTA3ODM4ODEVAgASGBRCSVowMDAwMDAwMDAwMDAwMDAwQQA=", emoji: "👍" });
  });

  it("unsupported (131051) and unavailable (131060)", async () => {
    const unknown = await one("platform-a-unsupported");
    expect(unknown.p.text).toBeNull();
    expect(unknown.item.unsupported).toMatchObject({
      type: "poll_creation",
      raw_type: "unsupported",
      errors: [{ code: 131051, title: "Message type unknown" }],
    });
    const unavailable = await one("platform-a-unavailable");
    expect(unavailable.item.unsupported).toMatchObject({ type: "media_placeholder", errors: [{ code: 131060, error_data: { details: expect.any(String) } }] });
  });

  it("a reply quotes the business message", async () => {
    const { item, row } = await one("platform-a-reply");
    expect(item.replied_to).toEqual({ message_id: "wamid.HBgLMTU1NTA3ODM4ODEVAgASGBRCSVowMDAwMDAwMDAwMDAwMDAwQgA=", from: "15550783881" });
    expect(row.replyTo).toBe("wamid.HBgLMTU1NTA3ODM4ODEVAgASGBRCSVowMDAwMDAwMDAwMDAwMDAwQgA=");
  });

  it("a username-only sender: from null, user_id set, username and parent_user_id passed on", async () => {
    const { p, row } = await one("platform-a-username-only");
    expect(p).toMatchObject({
      from: null,
      user_id: "BR.1502576394655843",
      username: "maria.lopez",
      parent_user_id: "BR.ENT.9182736450192837",
      text: "Hello from a username",
    });
    const [contact] = await h.app.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.projectId, beta.projectId), eq(contacts.id, row.contactId)));
    expect(contact).toMatchObject({ phone: null, userId: "BR.1502576394655843", username: "maria.lopez" });
  });

  it("several messages from two senders in one delivery: each stored, each its own contact", async () => {
    await post("platform-a-multiple");
    const ids = (toBeta("platform-a-multiple").entry[0].changes[0].value.messages as Payload[]).map((m) => m.id as string);
    const payloads = await Promise.all(ids.map(async (id) => (await receivedEvent(h, beta.projectId, id)).payload as Payload));
    expect(payloads.map((p) => [p.from, p.type])).toEqual([
      [`+${SHEENA}`, "text"],
      ["+447700900123", "text"],
      [`+${SHEENA}`, "image"],
    ]);
    expect(payloads[0]!.contact_id).toBe(payloads[2]!.contact_id);
    expect(payloads[1]!.contact_id).not.toBe(payloads[0]!.contact_id);
  });

  it("edit of the text, then of an image caption, then revoke: originals updated, events edit and revoke", async () => {
    await post("platform-a-text");
    await post("platform-a-image");
    const [text] = await rowByProviderId(h, betaChannel, "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=");
    const [image] = await rowByProviderId(h, betaChannel, "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQTFCMkMzRDRFNUY2MDcxODI5MwA=");
    const rows = await messageCount(h);
    await post("platform-a-edit");
    await post("platform-a-edit-caption");
    expect(await messageCount(h)).toBe(rows);
    expect(await h.messageRow(text!.id)).toMatchObject({ content: "Does it come in another colour?", status: "delivered" });
    const captioned = await h.messageRow(image!.id);
    expect(captioned.content).toBeNull();
    expect(captioned.media).toMatchObject({ type: "image", caption: "This one, in navy" });
    const edit = (await receivedFor(h, beta.projectId, "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQUMxRDJFM0Y0MDUxNjI3MzhBQgA="))[0]!;
    expect(edit).toMatchObject({ type: "edit", text: "Does it come in another colour?", metadata: { stored_message_id: text!.id } });

    await post("platform-a-revoke");
    expect(await h.messageRow(text!.id)).toMatchObject({ content: null, status: "deleted" });
    const revoke = (await receivedFor(h, beta.projectId, "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQUMwRDFFMkYzMDQxNTI2Mzc0QQA="))[0]!;
    expect(revoke).toMatchObject({ type: "revoke", text: null });
    expect(revoke.messages[0].revoke).toEqual({ original_message_id: "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=" });
  });

  it("an unsupported edit (a mutation the provider cannot forward) is recorded as unsupported", async () => {
    const { p, item } = await one("platform-a-unsupported-edit");
    expect(p).toMatchObject({ type: "unsupported", text: null });
    expect(item.unsupported.type).toBe("edit");
  });

  it("request_welcome and app state sync are not messages", async () => {
    const rows = await messageCount(h);
    await post("platform-a-request-welcome");
    await post("platform-a-app-state-sync");
    expect(await messageCount(h)).toBe(rows);
  });
});

describe("business-app echoes (coexistence): stored state changes, no message.received", () => {
  const ECHO = "wamid.HBgLMTU1NTA3ODM4ODEVAgASGBRFQ0hPMDAwMDAwMDAwMDAwMDAwMQA=";
  beforeEach(async () => {
    await freshBeta();
    // The customer the business app answers: Sheena, from her first message.
    await deliver(h, "platform-a", toBeta("platform-a-text"));
  });

  it("PLATFORM_A smb_message_echoes: an outbound row from the business app, then revoked; never an event", async () => {
    const received = (await h.eventsOf(beta.projectId, "message.received")).length;
    await deliver(h, "platform-a", toBeta("platform-a-echo"));
    const [row] = await rowByProviderId(h, betaChannel, ECHO);
    expect(row).toMatchObject({
      direction: "outbound",
      status: "sent",
      type: "text",
      content: "Sure, I'll send you the catalog now.",
      recipient: "16505551234",
      projectId: beta.projectId,
    });
    expect(row!.body).toMatchObject({ source: "business_app" });
    // The echo goes into the customer's existing conversation.
    const [sheena] = await h.app.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.projectId, beta.projectId), eq(contacts.phone, "+16505551234")));
    expect(row!.contactId).toBe(sheena!.id);
    // A retried echo is still one row.
    await deliver(h, "platform-a", toBeta("platform-a-echo"));
    expect(await rowByProviderId(h, betaChannel, ECHO)).toHaveLength(1);

    await deliver(h, "platform-a", toBeta("platform-a-echo-revoke"));
    expect(await h.messageRow(row!.id)).toMatchObject({ status: "deleted", content: null });
    expect((await h.eventsOf(beta.projectId, "message.received")).length).toBe(received);
    expect(await rowByProviderId(h, betaChannel, "wamid.HBgLMTU1NTA3ODM4ODEVAgASGBRFQ0hPMDAwMDAwMDAwMDAwMDAwMgA=")).toHaveLength(0);
  });
});

describe("contact.identity.updated: a customer changes their number", () => {
  beforeEach(async () => {
    await freshBeta();
    // Sheena, known on the dedicated channel by her number and business-scoped user id.
    await deliver(h, "platform-a", toBeta("platform-a-text"));
  });

  it("dedicated channel: the contact keeps its id, takes the new number, and the new number resolves to it", async () => {
    const [before] = await h.app.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.projectId, beta.projectId), eq(contacts.phone, "+16505551234")));
    expect(before).toBeDefined();
    await deliver(h, "platform-a", toBeta("platform-a-system-changed-number"));

    const system = (await receivedFor(h, beta.projectId, "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQThCOUNBREJFQ0ZEMEU1Njc4OQA="))[0]!;
    expect(system).toMatchObject({ type: "system", contact_id: before!.id, text: "User Sheena Nelson changed from 16505551234 to 12195555358" });
    expect(system.messages[0].system).toMatchObject({ type: "user_changed_number", wa_id: "12195555358" });

    const [after] = await h.app.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.projectId, beta.projectId), eq(contacts.id, before!.id)));
    expect(after!.phone).toBe("+12195555358");
    const updates = (await h.eventsOf(beta.projectId, "contact.identity.updated")).map((e) => e.payload as Payload);
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({
      contact_id: before!.id,
      channel_id: betaChannel,
      previous: { phone: "+16505551234" },
      current: { phone: "+12195555358" },
    });

    // Retried: no second event.
    await deliver(h, "platform-a", toBeta("platform-a-system-changed-number"));
    expect(await h.eventsOf(beta.projectId, "contact.identity.updated")).toHaveLength(1);

    await deliver(h, "platform-a", textA(betaPhoneNumberId, "12195555358", "wamid.NEW-NUMBER-0001", "hi from my new number"));
    const next = (await receivedFor(h, beta.projectId, "wamid.NEW-NUMBER-0001"))[0]!;
    expect(next).toMatchObject({ contact_id: before!.id, from: "+12195555358", conversation_id: system.conversation_id });
  });

  it("keeps no changed number without its contact.identity.updated: the retry changes the contact and announces it", async () => {
    const id = newId("inboundWebhook");
    const body = JSON.stringify(toBeta("platform-a-system-changed-number"));
    await h.app.db.insert(inboundWebhooks).values({ id, platform: "PLATFORM_A", body, receivedAt: h.app.clock.now() });
    await h.app.db.execute(sql`create or replace function svc_test_refuse_identity_event() returns trigger language plpgsql as $$
      begin if new.type = 'contact.identity.updated' then raise exception 'refused identity event'; end if; return new; end $$`);
    await h.app.db.execute(
      sql`create trigger svc_test_refuse_identity_event before insert on events for each row execute function svc_test_refuse_identity_event()`,
    );
    try {
      await expect(processInboundWebhook(h.app.systemCtx(), { id })).rejects.toThrow(/refused identity event/);
    } finally {
      await h.app.db.execute(sql`drop trigger svc_test_refuse_identity_event on events`);
    }
    const sheena = and(eq(contacts.projectId, beta.projectId), eq(contacts.phone, "+16505551234"));
    expect(await h.app.db.select({ id: contacts.id }).from(contacts).where(sheena)).toHaveLength(1);

    await processInboundWebhook(h.app.systemCtx(), { id });
    expect(await h.app.db.select({ id: contacts.id }).from(contacts).where(sheena)).toHaveLength(0);
    const updates = (await h.eventsOf(beta.projectId, "contact.identity.updated")).map((e) => e.payload as Payload);
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ previous: { phone: "+16505551234" }, current: { phone: "+12195555358" } });
  });

  it("a new business-scoped user id resolves to the same contact, even for a later username-only message", async () => {
    await deliver(h, "platform-a", toBeta("platform-a-system-changed-number"));
    await deliver(h, "platform-a", toBeta("platform-a-system-user-id-changed", { "16505551234": "12195555358" }));
    const [contact] = await h.app.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.projectId, beta.projectId), eq(contacts.phone, "+12195555358")));
    expect(contact).toMatchObject({ userId: "US.20938475610293847561" });
    const updates = await h.eventsOf(beta.projectId, "contact.identity.updated");
    expect(updates.at(-1)!.payload).toMatchObject({ contact_id: contact!.id, current: { user_id: "US.20938475610293847561" } });

    const usernameOnly = toBeta("platform-a-username-only", {
      "BR.1502576394655843": "US.20938475610293847561",
      "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQUQwRTFGMjAzMTQyNTM2NDc1OAA=": "wamid.NEW-USER-ID-0001",
    });
    await deliver(h, "platform-a", usernameOnly);
    expect((await receivedFor(h, beta.projectId, "wamid.NEW-USER-ID-0001"))[0]).toMatchObject({
      from: null,
      user_id: "US.20938475610293847561",
      contact_id: contact!.id,
    });
  });

  it("a number first seen with its user id: a later user-id-only message is the same contact", async () => {
    await deliver(h, "platform-a", envelopeWith("19995550001", "US.ALIAS-0001", "wamid.ALIAS-1", true));
    await deliver(h, "platform-a", envelopeWith("19995550001", "US.ALIAS-0001", "wamid.ALIAS-2", false));
    const [first] = await receivedFor(h, beta.projectId, "wamid.ALIAS-1");
    const [second] = await receivedFor(h, beta.projectId, "wamid.ALIAS-2");
    expect(second).toMatchObject({ from: null, user_id: "US.ALIAS-0001", contact_id: first!.contact_id });
  });

  it("sandbox: the tester's participation follows the new number", async () => {
    const OLD = "15552229001";
    const NEW = "15552229002";
    await joinSandbox(h, acme.projectId, OLD);
    const sent = await h.customer({ from: OLD, type: "system", system: { type: "user_changed_number", body: "changed", new_wa_id: NEW } });
    await flush();
    const system = (await receivedFor(h, acme.projectId, sent.message_id))[0]!;
    const updates = (await h.eventsOf(acme.projectId, "contact.identity.updated")).map((e) => e.payload as Payload);
    expect(updates.find((u) => u.contact_id === system.contact_id)).toMatchObject({ current: { phone: `+${NEW}` } });

    const next = await h.customer({ from: NEW, type: "text", text: "new phone who dis" });
    await flush();
    expect((await receivedFor(h, acme.projectId, next.message_id))[0]).toMatchObject({ contact_id: system.contact_id, from: `+${NEW}` });
    expect(await h.app.db.select().from(messages).where(eq(messages.platformMessageId, next.message_id))).toHaveLength(1);
  });
});

function envelopeWith(phone: string, userId: string, id: string, withPhone: boolean) {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: FIXTURE_A.waba,
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: betaPhoneNumberId },
              contacts: [withPhone ? { profile: { name: "Alias" }, wa_id: phone, user_id: userId } : { profile: { name: "Alias" }, user_id: userId }],
              messages: [
                {
                  ...(withPhone ? { from: phone } : {}),
                  from_user_id: userId,
                  id,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  type: "text",
                  text: { body: id },
                },
              ],
            },
          },
        ],
      },
    ],
  };
}
