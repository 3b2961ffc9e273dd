import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { contacts, messages, projects } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import type { Seeded } from "../support/app";
import {
  FIXTURE_B,
  FIXTURE_C,
  adapted,
  connectChannel,
  deliver,
  enablePlatforms,
  envelopeM,
  expectReceivedShape,
  expectUncachedMedia,
  messageCount,
  receivedEvent,
  receivedFor,
  rowByProviderId,
  startHarness,
  type Harness,
} from "./harness";

/**
 * PLATFORM_B (Instagram-style) and PLATFORM_C (Messenger-style) inbound: the simulator acting as the
 * customer, the provider's own payloads, statuses (read / delivery receipts, watermarks included) and
 * page-inbox echoes.
 */
let h: Harness;
let gamma: Seeded;
const channel = { PLATFORM_B: "", PLATFORM_C: "" };
const SENDER = { PLATFORM_B: FIXTURE_B.accountId, PLATFORM_C: FIXTURE_C.pageId };
type P = "PLATFORM_B" | "PLATFORM_C";
type Payload = Record<string, any>;

beforeAll(async () => {
  h = await startHarness();
  gamma = await h.app.seed({ orgName: "Gamma" });
  await enablePlatforms(h, gamma.orgId);
  channel.PLATFORM_B = (
    await connectChannel(h, gamma, { platform: "PLATFORM_B", display_name: "IG", credentials: { account_id: FIXTURE_B.accountId, access_token: "ig-token" } })
  ).id;
  // The project's second channel: projects.channel_id names only the first one.
  channel.PLATFORM_C = (
    await connectChannel(h, gamma, { platform: "PLATFORM_C", display_name: "Page", credentials: { page_id: FIXTURE_C.pageId, access_token: "page-token" } })
  ).id;
  const [project] = await h.app.db.select().from(projects).where(eq(projects.id, gamma.projectId));
  expect(project!.channelId).toBe(channel.PLATFORM_B);
});
afterAll(() => h?.close());

const flush = () => h.app.runtime.ports.queue.drain();

async function customer(platform: P, from: string, input: Record<string, unknown>) {
  const sent = await h.customer({ platform, sender_id: SENDER[platform], from, ...input });
  expect(sent.delivered_status).toBe(200);
  await flush();
  return sent.message_id;
}

/** The one message.received for a provider id, with the stored row, checked against the spec's table. */
async function received(platform: P, providerId: string, from: string) {
  const event = await receivedEvent(h, gamma.projectId, providerId);
  const p = expectReceivedShape(event.payload as Payload);
  const rows = await rowByProviderId(h, channel[platform], providerId);
  expect(rows).toHaveLength(1);
  const row = rows[0]!;
  expect(row).toMatchObject({ direction: "inbound", status: "delivered", projectId: gamma.projectId });
  expect(p).toMatchObject({
    agent_id: gamma.projectId,
    organization_id: gamma.orgId,
    channel_id: channel[platform],
    contact_id: row.contactId,
    conversation_id: row.conversationId,
    message_id: row.id,
    from: null,
    user_id: from,
    type: row.type,
    metadata: { platform, provider_message_id: providerId },
  });
  expect(event).toMatchObject({ deliver: true, route: "external" });
  return { p, row, item: p.messages[0] as Payload };
}

for (const platform of ["PLATFORM_B", "PLATFORM_C"] as const) {
  const USER = platform === "PLATFORM_B" ? "1254400000000001" : "5023400000000001";
  const provider = platform === "PLATFORM_B" ? "platform_b" : "platform_c";

  describe(`${platform} inbound through the simulator`, () => {
    it("text: from null, user_id the platform-scoped id, a contact known by that id", async () => {
      const id = await customer(platform, USER, { type: "text", text: "Hi there" });
      const { p, row } = await received(platform, id, USER);
      expect(p).toMatchObject({ type: "text", text: "Hi there", media: null, assets: [] });
      const [contact] = await h.app.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.projectId, gamma.projectId), eq(contacts.id, row.contactId)));
      expect(contact).toMatchObject({ phone: null, userId: USER, platform, channelId: channel[platform] });
    });

    for (const type of ["image", "video", "audio", "document"] as const) {
      it(`${type} attachment: media with provider ${provider}, no provider media id, url null until cached`, async () => {
        const id = await customer(platform, USER, { type });
        const { p, row } = await received(platform, id, USER);
        expect(p).toMatchObject({ type, text: null });
        expectUncachedMedia(p.media, { type, provider, provider_media_id: null, platform_a_media_id: null, message_id: row.id } as never);
        expect(p.assets).toEqual([p.media]);
        expect(row.media).toEqual(p.media);
      });
    }

    it("postback: interactive {type postback, title, payload}", async () => {
      const id = await customer(platform, USER, { type: "postback", postback: { title: "Get Started", payload: "GET_STARTED" } });
      const { p, item } = await received(platform, id, USER);
      expect(p).toMatchObject({ type: "interactive", text: "Get Started" });
      expect(item.interactive).toMatchObject({ type: "postback", title: "Get Started", payload: "GET_STARTED" });
    });

    it("quick reply: interactive {type quick_reply, payload}", async () => {
      const id = await customer(platform, USER, { type: "button_reply", reply: { id: "COLOR_RED", title: "Red" } });
      const { p, item } = await received(platform, id, USER);
      expect(p).toMatchObject({ type: "interactive", text: "Red" });
      expect(item.interactive).toMatchObject({ type: "quick_reply", title: "Red", payload: "COLOR_RED" });
    });

    it("reply quotes the mid; reaction (and unreact) names the reacted mid", async () => {
      const quoted = await customer(platform, USER, { type: "text", text: "quoted" });
      const reply = await customer(platform, USER, { type: "text", text: "replying", reply_to: quoted });
      expect((await received(platform, reply, USER)).item.replied_to).toEqual({ message_id: quoted, from: null });

      const before = (await h.eventsOf(gamma.projectId, "message.received")).length;
      await customer(platform, USER, { type: "reaction", reaction: { message_id: quoted, emoji: "👍" } });
      await customer(platform, USER, { type: "reaction", reaction: { message_id: quoted, emoji: "" } });
      const reactions = (await h.eventsOf(gamma.projectId, "message.received")).slice(before).map((e) => e.payload as Payload);
      expect(reactions.map((r) => [r.type, r.messages[0].reaction])).toEqual([
        ["reaction", { message_id: quoted, emoji: "👍" }],
        ["reaction", { message_id: quoted, emoji: "" }],
      ]);
    });

    it("edit: the original row is updated; event type edit", async () => {
      const original = await customer(platform, USER, { type: "text", text: "Open Sunday?" });
      const [row] = await rowByProviderId(h, channel[platform], original);
      const count = await messageCount(h);
      await customer(platform, USER, { type: "edit", edit: { message_id: original, text: "Open Sunday morning?" } });
      expect(await messageCount(h)).toBe(count);
      expect(await h.messageRow(row!.id)).toMatchObject({ content: "Open Sunday morning?" });
      const [edit] = await receivedFor(h, gamma.projectId, `${original}:edit:1`);
      expect(edit).toMatchObject({ type: "edit", text: "Open Sunday morning?", metadata: { stored_message_id: row!.id } });
      expect(edit!.messages[0].edit).toEqual({ original_message_id: original, message: { type: "text", text: { body: "Open Sunday morning?" } } });
    });
  });
}

describe("PLATFORM_B only: deletes and unsupported", () => {
  const USER = "1254400000000002";
  it("revoke: the original is cleared and deleted; unsupported: text null", async () => {
    const original = await customer("PLATFORM_B", USER, { type: "text", text: "oops" });
    const [row] = await rowByProviderId(h, channel.PLATFORM_B, original);
    await customer("PLATFORM_B", USER, { type: "revoke", revoke: { message_id: original } });
    expect(await h.messageRow(row!.id)).toMatchObject({ content: null, status: "deleted" });
    const [revoke] = await receivedFor(h, gamma.projectId, `${original}:revoke`);
    expect(revoke).toMatchObject({ type: "revoke", text: null });

    const unsupported = await customer("PLATFORM_B", USER, { type: "unsupported" });
    const { p, item } = await received("PLATFORM_B", unsupported, USER);
    expect(p).toMatchObject({ type: "unsupported", text: null });
    expect(item.unsupported).toMatchObject({ type: "unknown", raw_type: "is_unsupported", errors: [] });
  });
});

describe("the provider's own payloads", () => {
  /** A fixture whose message/postback mid is replaced (fixtures reuse mids across files). */
  function withMid(name: string, mid: string): Payload {
    const body = adapted(name);
    const item = body.entry[0].messaging[0];
    (item.message ?? item.postback).mid = mid;
    return body;
  }

  it("PLATFORM_B text, quick reply, story reply, share (unsupported), image", async () => {
    const USER = "1254477777772919";
    await deliver(h, "platform-b", adapted("instagram-text"));
    const text = await received("PLATFORM_B", adapted("instagram-text").entry[0].messaging[0].message.mid, USER);
    expect(text.p.text).toBe("Hi! Do you ship to Canada?");
    await deliver(h, "platform-b", withMid("instagram-quick-reply", "ig-mid-qr"));
    expect((await received("PLATFORM_B", "ig-mid-qr", USER)).item.interactive).toMatchObject({ type: "quick_reply", payload: "TRACK_ORDER" });
    await deliver(h, "platform-b", withMid("instagram-story-reply", "ig-mid-story"));
    expect((await received("PLATFORM_B", "ig-mid-story", USER)).p).toMatchObject({ type: "text", text: "Love this!" });
    await deliver(h, "platform-b", withMid("instagram-share", "ig-mid-share"));
    expect((await received("PLATFORM_B", "ig-mid-share", USER)).item.unsupported).toMatchObject({ type: "ig_reel" });
    await deliver(h, "platform-b", withMid("instagram-image", "ig-mid-image"));
    const image = await received("PLATFORM_B", "ig-mid-image", USER);
    expect(image.p.media).toMatchObject({ type: "image", provider: "platform_b", provider_media_id: null, url: null, status: "unavailable" });
  });

  it("PLATFORM_C several attachments in one message: every file in assets, media the first", async () => {
    await deliver(h, "platform-c", withMid("messenger-attachments", "m_mid-attachments"));
    const { p, row } = await received("PLATFORM_C", "m_mid-attachments", "5023436377684981");
    expect(p.type).toBe("image");
    expect(p.assets.map((a: Payload) => [a.type, a.provider, a.status, a.message_id])).toEqual([
      ["image", "platform_c", "unavailable", row.id],
      ["document", "platform_c", "unavailable", row.id],
      ["audio", "platform_c", "unavailable", row.id],
    ]);
    expect(p.media).toEqual(p.assets[0]);
  });

  it("PLATFORM_C sticker, postback with referral (no mid): retried delivery is one message", async () => {
    await deliver(h, "platform-c", withMid("messenger-sticker", "m_mid-sticker"));
    const sticker = await received("PLATFORM_C", "m_mid-sticker", "5023436377684981");
    expect(sticker.p).toMatchObject({ type: "sticker", media: { type: "sticker", provider: "platform_c" } });
    expect(sticker.p.assets).toHaveLength(1);

    await deliver(h, "platform-c", adapted("messenger-postback-referral"));
    await deliver(h, "platform-c", adapted("messenger-postback-referral"));
    const postbacks = (await h.eventsOf(gamma.projectId, "message.received"))
      .map((e) => e.payload as Payload)
      .filter((p) => p.messages[0].interactive?.payload === "GET_STARTED" && p.metadata.referral);
    expect(postbacks).toHaveLength(1);
    expect(postbacks[0]!.metadata.referral).toMatchObject({ ref: "spring-sale", source: "ADS" });
  });
});

describe("page / account inbox echoes: stored, never message.received", () => {
  it("PLATFORM_C is_echo and PLATFORM_B is_echo make outbound rows; a retry is still one row", async () => {
    const before = (await h.eventsOf(gamma.projectId, "message.received")).length;
    // The fixture's mid is also one of messenger-delivery's: give the echo its own.
    const echoC = adapted("messenger-echo", { m_Cy2w8Jr3Kv4Uw5Tx6Sy7Rz8Qa9Pb0Oc1Nd2Me3Lf4Kg5Jh6Ii7Hj8Gk9Fl0Em1Dn2Co3Bp4Aq5Zr6Ys7Xt8W: "m_ECHO-FIXTURE" });
    await deliver(h, "platform-c", echoC);
    await deliver(h, "platform-c", echoC);
    const mid = echoC.entry[0].messaging[0].message.mid as string;
    const rowsC = await rowByProviderId(h, channel.PLATFORM_C, mid);
    expect(rowsC).toHaveLength(1);
    expect(rowsC[0]).toMatchObject({
      direction: "outbound",
      status: "sent",
      content: "Yes, 10am to 4pm.",
      recipient: "5023436377684981",
      projectId: gamma.projectId,
    });

    const echoB = adapted("instagram-echo");
    await deliver(h, "platform-b", echoB);
    const rowsB = await rowByProviderId(h, channel.PLATFORM_B, echoB.entry[0].messaging[0].message.mid);
    expect(rowsB[0]).toMatchObject({ direction: "outbound", content: "Yes, we ship to Canada!", recipient: "1254477777772919" });
    expect((await h.eventsOf(gamma.projectId, "message.received")).length).toBe(before);
  });

  it("an echo of our own send that arrives before the send job stored its mid waits instead of making a second row", async () => {
    const USER = "5023400000000009";
    await customer("PLATFORM_C", USER, { type: "text", text: "hello" });
    const [own] = await h.app.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.projectId, gamma.projectId), eq(contacts.userId, USER)));
    const [conv] = await h.app.db
      .select()
      .from(messages)
      .where(and(eq(messages.contactId, own!.id), eq(messages.channelId, channel.PLATFORM_C)));
    // The send job is in flight: queued, no mid yet.
    const id = newId("message");
    const now = h.app.clock.now();
    await h.app.db.insert(messages).values({
      id,
      projectId: gamma.projectId,
      conversationId: conv!.conversationId,
      contactId: own!.id,
      channelId: channel.PLATFORM_C,
      direction: "outbound",
      type: "text",
      status: "queued",
      content: "Our reply",
      body: { kind: "text" },
      recipient: USER,
      timestamp: now,
      createdAt: now,
      updatedAt: now,
    });
    const echo = envelopeM("PLATFORM_C", FIXTURE_C.pageId, [
      {
        sender: { id: FIXTURE_C.pageId },
        recipient: { id: USER },
        timestamp: Date.now(),
        message: { mid: "m_OWN-SEND-ECHO", is_echo: true, text: "Our reply" },
      },
    ]);
    await deliver(h, "platform-c", echo);
    expect(await rowByProviderId(h, channel.PLATFORM_C, "m_OWN-SEND-ECHO")).toHaveLength(0);
    // The send job stores the mid (as deliverToProvider does); the retried echo then finds it.
    await h.app.db.update(messages).set({ platformMessageId: "m_OWN-SEND-ECHO", status: "sent" }).where(eq(messages.id, id));
    await new Promise((r) => setTimeout(r, 1100));
    await flush();
    const rows = await rowByProviderId(h, channel.PLATFORM_C, "m_OWN-SEND-ECHO");
    expect(rows.map((r) => r.id)).toEqual([id]);
  });
});

describe("statuses on B and C", () => {
  async function conversationOf(platform: P, user: string): Promise<string> {
    const [contact] = await h.app.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.projectId, gamma.projectId), eq(contacts.userId, user)));
    const res = await h.app.call("GET", "/conversations?limit=100", { key: gamma.key });
    return res.body.data.find((c: Payload) => c.contact_id === contact!.id).id;
  }
  const statuses = async (messageId: string) =>
    (await h.eventsOf(gamma.projectId, "message.status")).map((e) => e.payload as Payload).filter((p) => p.message_id === messageId);

  it("PLATFORM_C reply round trip: sent at acceptance, delivery receipt by mid, read receipt by watermark only", async () => {
    const USER = "5023400000000020";
    await customer("PLATFORM_C", USER, { type: "text", text: "are you there?" });
    const res = await h.app.call("POST", "/messages", {
      key: gamma.key,
      body: { channel_id: channel.PLATFORM_C, conversation_id: await conversationOf("PLATFORM_C", USER), text: "Yes!" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await h.settle(150);
    const row = await h.messageRow(res.body.id);
    expect(row.platformMessageId).toMatch(/^m_/);
    expect(row.status).toBe("read");
    const events = await statuses(res.body.id);
    expect(events.map((s) => s.status)).toEqual(["sent", "delivered", "read"]);
    expect(events[2]).toMatchObject({ recipient_user_id: USER, channel_id: channel.PLATFORM_C });
    // The "sent" echo of our own send made no second row.
    expect(await rowByProviderId(h, channel.PLATFORM_C, row.platformMessageId!)).toHaveLength(1);
  });

  it("PLATFORM_B reply round trip: sent at acceptance, read receipt naming the mid", async () => {
    const USER = "1254400000000020";
    await customer("PLATFORM_B", USER, { type: "text", text: "ping" });
    const res = await h.app.call("POST", "/messages", {
      key: gamma.key,
      body: { channel_id: channel.PLATFORM_B, conversation_id: await conversationOf("PLATFORM_B", USER), text: "pong" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await h.settle(150);
    expect((await h.messageRow(res.body.id)).status).toBe("read");
    expect((await statuses(res.body.id)).map((s) => [s.status, s.recipient_user_id])).toEqual([
      ["sent", USER],
      ["read", USER],
    ]);
  });

  it("watermarks: read / delivery without mids move every earlier outbound message of that user on the channel, not later ones", async () => {
    const USER = "5023400000000030";
    const OTHER = "5023400000000031";
    await customer("PLATFORM_C", USER, { type: "text", text: "hi" });
    await customer("PLATFORM_C", OTHER, { type: "text", text: "hi" });
    const t0 = Date.now() - 60_000;
    const outbound = async (user: string, at: number, mid: string) => {
      const [contact] = await h.app.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.projectId, gamma.projectId), eq(contacts.userId, user)));
      const [anyRow] = await h.app.db.select().from(messages).where(eq(messages.contactId, contact!.id));
      const id = newId("message", at);
      await h.app.db.insert(messages).values({
        id,
        projectId: gamma.projectId,
        conversationId: anyRow!.conversationId,
        contactId: contact!.id,
        channelId: channel.PLATFORM_C,
        direction: "outbound",
        type: "text",
        status: "sent",
        content: mid,
        body: { kind: "text" },
        platformMessageId: mid,
        recipient: user,
        timestamp: new Date(at),
        createdAt: new Date(at),
        updatedAt: new Date(at),
      });
      return id;
    };
    const early = await outbound(USER, t0, "m_WM-EARLY");
    const middle = await outbound(USER, t0 + 10_000, "m_WM-MIDDLE");
    const late = await outbound(USER, t0 + 30_000, "m_WM-LATE");
    const other = await outbound(OTHER, t0, "m_WM-OTHER");
    const receipt = (kind: "read" | "delivery", watermark: number) =>
      envelopeM("PLATFORM_C", FIXTURE_C.pageId, [
        { sender: { id: USER }, recipient: { id: FIXTURE_C.pageId }, timestamp: watermark + 100, [kind]: { watermark } },
      ]);

    await deliver(h, "platform-c", receipt("delivery", t0 + 20_000));
    expect((await h.messageRow(early)).status).toBe("delivered");
    expect((await h.messageRow(middle)).status).toBe("delivered");
    expect((await h.messageRow(late)).status).toBe("sent");

    await deliver(h, "platform-c", receipt("read", t0 + 5_000));
    expect((await h.messageRow(early)).status).toBe("read");
    expect((await h.messageRow(middle)).status).toBe("delivered");

    await deliver(h, "platform-c", receipt("read", t0 + 40_000));
    await deliver(h, "platform-c", receipt("read", t0 + 40_000));
    expect(await Promise.all([early, middle, late].map(async (id) => (await h.messageRow(id)).status))).toEqual(["read", "read", "read"]);
    expect((await h.messageRow(other)).status).toBe("sent");
    expect((await statuses(early)).map((s) => s.status)).toEqual(["delivered", "read"]);
    expect((await statuses(late)).map((s) => s.status)).toEqual(["read"]);
    expect((await statuses(middle))[1]).toMatchObject({ status: "read", recipient_user_id: USER, platform_message_id: "m_WM-MIDDLE" });
    expect(await statuses(other)).toEqual([]);
  });

  it("the provider's receipts: delivery by mids, read by watermark (fixtures)", async () => {
    const USER = "5023436377684981";
    const [contact] = await h.app.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.projectId, gamma.projectId), eq(contacts.userId, USER)));
    const [anyRow] = await h.app.db.select().from(messages).where(eq(messages.contactId, contact!.id));
    const mids = adapted("messenger-delivery").entry[0].messaging[0].delivery.mids as string[];
    const at = 1749416390000;
    const ids: string[] = [];
    for (const mid of mids) {
      const id = newId("message", at);
      ids.push(id);
      await h.app.db.insert(messages).values({
        id,
        projectId: gamma.projectId,
        conversationId: anyRow!.conversationId,
        contactId: contact!.id,
        channelId: channel.PLATFORM_C,
        direction: "outbound",
        type: "text",
        status: "sent",
        content: "x",
        body: { kind: "text" },
        platformMessageId: mid,
        recipient: USER,
        timestamp: new Date(at),
        createdAt: new Date(at),
        updatedAt: new Date(at),
      });
    }
    await deliver(h, "platform-c", adapted("messenger-delivery"));
    expect(await Promise.all(ids.map(async (id) => (await h.messageRow(id)).status))).toEqual(["delivered", "delivered"]);
    await deliver(h, "platform-c", adapted("messenger-read"));
    expect(await Promise.all(ids.map(async (id) => (await h.messageRow(id)).status))).toEqual(["read", "read"]);
  });
});
