import { describe, expect, it } from "vitest";
import { normalizeMessengerWebhook } from "@/lib/domain/ingest/normalize-messenger";
import type { InboundEvent, InboundMedia, NormalizedInboundMessage } from "@/lib/domain/ingest/types";
import { at, fixture, interactive, message, party } from "./support";

const IG_ACCOUNT = "17841405822304914";
const IGSID = "1254477777772919";
const PAGE = "112233445566778";
const PSID = "5023436377684981";
const T = 1749416383123;
/** Fixture timestamps are epoch ms 1749416383123 (= 2025-06-08T20:59:43.123Z) plus an offset in ms. */
const iso = (offset: number) => new Date(Date.parse("2025-06-08T20:59:43.123Z") + offset).toISOString();

const IGMID =
  "aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjE3ODQxNDA1ODIyMzA0OTE0OjM0MDI4MjM2Njg0MTcxMDMwMTI0NDI1OTg0MDQ1ODk4NjQ4MDg5MzozMTk1MjYxMjkzNzU3NDc2MjYyNzA2MTM0MzA0NjQ2MzEwNAZDZD";
const IGMID2 =
  "aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjE3ODQxNDA1ODIyMzA0OTE0OjM0MDI4MjM2Njg0MTcxMDMwMTI0NDI1OTg0MDQ1ODk4NjQ4MDg5MzozMTk1MjYxMzA0NTE5ODg2MTE5MDQ3ODg0NTQ5ODQ2NDAwMAZDZD";
const IGBIZ =
  "aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjE3ODQxNDA1ODIyMzA0OTE0OjM0MDI4MjM2Njg0MTcxMDMwMTI0NDI1OTg0MDQ1ODk4NjQ4MDg5MzozMTk1MjYwOTg4NzY1NDMyMTAxMjM0NTY3ODkwMTIzNAZDZD";
const MID = "m_AG5Hz2Uq7tuwNEhXfYYKj8mJEM_QPpz5jdCK48PnKAjSdjfipqxqMvK8ma6AC8fplwlqLP_5cgXIbu7I3rBN0P";
const MID2 = "m_Ho6T3L2bW8cXqY1vR4zN0eJkM7pA9sD5fG2hK8lP3oI6uY4tR1eW0qZ9xC8vB7nM6aS5dF4gH3jK2lQ1wE0rT";
const BIZ1 = "m_Bz1x9Kq2Lw3Ve4Ut5Ys6Ri7Qo8Pn9Om0Nl1Mk2Lj3Ki4Jh5Ig6Hf7Ge8Fd9Ec0Db1Ca2Bz3Ay4Zx5Yw6Xv7Wu";
const BIZ2 = "m_Cy2w8Jr3Kv4Uw5Tx6Sy7Rz8Qa9Pb0Oc1Nd2Me3Lf4Kg5Jh6Ii7Hj8Gk9Fl0Em1Dn2Co3Bp4Aq5Zr6Ys7Xt8W";
const CDN = "https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=17972983661803371&signature=AbzCq1m3xVfQ2Lw";

const ig = (name: string) => normalizeMessengerWebhook("PLATFORM_B", fixture(name));
const fb = (name: string) => normalizeMessengerWebhook("PLATFORM_C", fixture(name));

function fromIg(m: NormalizedInboundMessage): InboundEvent {
  return { platform: "PLATFORM_B", senderId: IG_ACCOUNT, kind: "message", from: party({ user_id: IGSID }), message: m };
}
function fromFb(m: NormalizedInboundMessage, psid = PSID): InboundEvent {
  return { platform: "PLATFORM_C", senderId: PAGE, kind: "message", from: party({ user_id: psid }), message: m };
}
function media(provider: "platform_b" | "platform_c", type: InboundMedia["type"], url: string): InboundMedia {
  return { type, provider, provider_media_id: null, source_url: url, mime_type: null, file_name: null, sha256: null, caption: null };
}

describe("PLATFORM_B (Instagram)", () => {
  it("text: sender is the IGSID (no address), senderId the account, ms timestamp → ISO", () => {
    expect(ig("instagram-text")).toStrictEqual([fromIg(message({ id: IGMID, received_at: "2025-06-08T20:59:43.123Z", text: "Hi! Do you ship to Canada?" }))]);
  });

  it("image attachment: source_url, no provider media id", () => {
    expect(ig("instagram-image")).toStrictEqual([
      fromIg(message({ id: IGMID2, received_at: iso(1000), type: "image", media: media("platform_b", "image", CDN) })),
    ]);
  });

  it("reply_to mid → replied_to", () => {
    expect(ig("instagram-reply")).toStrictEqual([
      fromIg(message({ id: IGMID2, received_at: iso(2000), text: "This one please", replied_to: { message_id: IGBIZ, from: null } })),
    ]);
  });

  it("a story reply is not a message reply", () => {
    expect(ig("instagram-story-reply")).toStrictEqual([fromIg(message({ id: IGMID2, received_at: iso(2500), text: "Love this!" }))]);
  });

  it("quick_reply → interactive quick_reply with payload and title", () => {
    expect(ig("instagram-quick-reply")).toStrictEqual([
      fromIg(
        message({
          id: IGMID2,
          received_at: iso(3000),
          type: "interactive",
          text: "Track my order",
          interactive: interactive({ type: "quick_reply", title: "Track my order", payload: "TRACK_ORDER" }),
        }),
      ),
    ]);
  });

  it("reaction: its own dedupe key, reaction {message_id, emoji}", () => {
    expect(ig("instagram-reaction")).toStrictEqual([
      fromIg(
        message({
          id: `${IGBIZ}:reaction:${T + 4000}`,
          received_at: iso(4000),
          type: "reaction",
          text: "❤️",
          reaction: { message_id: IGBIZ, emoji: "❤️" },
        }),
      ),
    ]);
  });

  it("unreact → emoji empty", () => {
    expect(ig("instagram-unreact")).toStrictEqual([
      fromIg(
        message({
          id: `${IGBIZ}:reaction:${T + 5000}`,
          received_at: iso(5000),
          type: "reaction",
          reaction: { message_id: IGBIZ, emoji: "" },
        }),
      ),
    ]);
  });

  it("is_deleted → revoke of that mid", () => {
    expect(ig("instagram-deleted")).toStrictEqual([
      fromIg(message({ id: `${IGMID}:revoke`, received_at: iso(6000), type: "revoke", revoke: { original_message_id: IGMID } })),
    ]);
  });

  it("is_unsupported → unsupported", () => {
    expect(ig("instagram-unsupported")).toStrictEqual([
      fromIg(
        message({
          id: IGMID2,
          received_at: iso(7000),
          type: "unsupported",
          unsupported: { type: "unknown", raw_type: "is_unsupported", errors: [] },
        }),
      ),
    ]);
  });

  it("a shared reel (no representable media) → unsupported with the attachment type", () => {
    expect(ig("instagram-share")).toStrictEqual([
      fromIg(
        message({
          id: IGMID2,
          received_at: iso(7500),
          type: "unsupported",
          unsupported: { type: "ig_reel", raw_type: "ig_reel", errors: [] },
        }),
      ),
    ]);
  });

  it("messaging_seen read {mid} → status read for that mid", () => {
    const payload = fixture("instagram-read");
    expect(normalizeMessengerWebhook("PLATFORM_B", payload)).toStrictEqual([
      {
        platform: "PLATFORM_B",
        senderId: IG_ACCOUNT,
        kind: "status",
        platform_message_id: IGBIZ,
        status: "read",
        timestamp: iso(8000),
        recipient_id: null,
        recipient_user_id: IGSID,
        errors: [],
        raw: at(payload, "entry", 0, "messaging", 0),
      },
    ]);
  });

  it("postback → interactive postback", () => {
    expect(ig("instagram-postback")).toStrictEqual([
      fromIg(
        message({
          id: IGMID2,
          received_at: iso(8500),
          type: "interactive",
          text: "Talk to a human",
          interactive: interactive({ type: "postback", title: "Talk to a human", payload: "HUMAN_AGENT" }),
        }),
      ),
    ]);
  });

  it("is_echo → kind echo; senderId is the account (the echo's sender), `to` the user", () => {
    expect(ig("instagram-echo")).toStrictEqual([
      {
        platform: "PLATFORM_B",
        senderId: IG_ACCOUNT,
        kind: "echo",
        to: party({ user_id: IGSID }),
        message: message({ id: IGBIZ, received_at: iso(9000), text: "Yes, we ship to Canada!" }),
      },
    ]);
  });

  it("message_edit → edit with its own dedupe key", () => {
    const body = "Hi! Do you ship to Canada and the US?";
    expect(ig("instagram-edit")).toStrictEqual([
      fromIg(
        message({
          id: `${IGMID}:edit:1`,
          received_at: iso(9500),
          type: "edit",
          text: body,
          edit: { original_message_id: IGMID, message: { type: "text", text: { body } } },
        }),
      ),
    ]);
  });
});

describe("PLATFORM_C (Messenger)", () => {
  it("text: sender is the PSID, senderId the page", () => {
    expect(fb("messenger-text")).toStrictEqual([fromFb(message({ id: MID, received_at: iso(10000), text: "Are you open on Sunday?" }))]);
  });

  it("postback → interactive postback (title, payload)", () => {
    expect(fb("messenger-postback")).toStrictEqual([
      fromFb(
        message({
          id: "m_Gp7q1Wz5Xc9Vb3Nm6Kl2Jh8Gf4Ds0Aa1Ss2Dd3Ff4Gg5Hh6Jj7Kk8Ll9Qq0Ww1Ee2Rr3Tt4Yy5Uu6Ii7Oo",
          received_at: iso(11000),
          type: "interactive",
          text: "Get Started",
          interactive: interactive({ type: "postback", title: "Get Started", payload: "GET_STARTED" }),
        }),
      ),
    ]);
  });

  it("postback without mid, with an ad referral", () => {
    const payload = fixture("messenger-postback-referral");
    expect(normalizeMessengerWebhook("PLATFORM_C", payload)).toStrictEqual([
      fromFb(
        message({
          id: `postback:${PSID}:${T + 11500}`,
          received_at: iso(11500),
          type: "interactive",
          text: "Get Started",
          interactive: interactive({ type: "postback", title: "Get Started", payload: "GET_STARTED" }),
          referral: at(payload, "entry", 0, "messaging", 0, "postback", "referral"),
        }),
      ),
    ]);
  });

  it("quick_reply", () => {
    expect(fb("messenger-quick-reply")).toStrictEqual([
      fromFb(
        message({
          id: MID2,
          received_at: iso(12000),
          type: "interactive",
          text: "Red",
          interactive: interactive({ type: "quick_reply", title: "Red", payload: "COLOR_RED" }),
        }),
      ),
    ]);
  });

  it("delivery → one delivered status per mid", () => {
    const payload = fixture("messenger-delivery");
    const raw = at(payload, "entry", 0, "messaging", 0);
    const status = (mid: string) => ({
      platform: "PLATFORM_C",
      senderId: PAGE,
      kind: "status",
      platform_message_id: mid,
      status: "delivered",
      timestamp: iso(13000),
      recipient_id: null,
      recipient_user_id: PSID,
      errors: [],
      raw,
    });
    expect(normalizeMessengerWebhook("PLATFORM_C", payload)).toStrictEqual([status(BIZ1), status(BIZ2)]);
  });

  it("read with only a watermark → one read status, empty message id, watermark in raw", () => {
    const payload = fixture("messenger-read");
    const events = normalizeMessengerWebhook("PLATFORM_C", payload);
    expect(events).toStrictEqual([
      {
        platform: "PLATFORM_C",
        senderId: PAGE,
        kind: "status",
        platform_message_id: "",
        status: "read",
        timestamp: iso(14000),
        recipient_id: null,
        recipient_user_id: PSID,
        errors: [],
        raw: at(payload, "entry", 0, "messaging", 0),
      },
    ]);
    expect(at(events[0], "raw", "read")).toStrictEqual({ watermark: T + 13900 });
  });

  it("reaction", () => {
    expect(fb("messenger-reaction")).toStrictEqual([
      fromFb(
        message({
          id: `${BIZ1}:reaction:${T + 15000}`,
          received_at: iso(15000),
          type: "reaction",
          text: "👍",
          reaction: { message_id: BIZ1, emoji: "👍" },
        }),
      ),
    ]);
  });

  it("message_edit", () => {
    const body = "Are you open on Sunday morning?";
    expect(fb("messenger-edit")).toStrictEqual([
      fromFb(
        message({
          id: `${MID}:edit:2`,
          received_at: iso(16000),
          type: "edit",
          text: body,
          edit: { original_message_id: MID, message: { type: "text", text: { body } } },
        }),
      ),
    ]);
  });

  it("several attachments: image, file → document, audio; media is the first, attachments lists all", () => {
    const all = [
      media("platform_c", "image", "https://scontent.xx.fbcdn.net/v/t1.15752-9/501234567_1_n.jpg?_nc_cat=1&oh=00_AfA"),
      media("platform_c", "document", "https://cdn.fbsbx.com/v/t59.2708-21/501234568_receipt.pdf?_nc_cat=1&oh=00_AfB"),
      media("platform_c", "audio", "https://cdn.fbsbx.com/v/t59.3654-21/501234569_audioclip.mp4?_nc_cat=1&oh=00_AfC"),
    ];
    expect(fb("messenger-attachments")).toStrictEqual([fromFb(message({ id: MID2, received_at: iso(17000), type: "image", media: all[0], attachments: all }))]);
  });

  it("sticker during the image+sticker transition: one sticker", () => {
    const url = "https://scontent.xx.fbcdn.net/v/t39.1997-6/39178562_1505197616293642_n.png?_nc_cat=1";
    expect(fb("messenger-sticker")).toStrictEqual([
      fromFb(message({ id: MID2, received_at: iso(18000), type: "sticker", media: { ...media("platform_c", "sticker", url), animated: false } })),
    ]);
  });

  it("message echo (page inbox / another app) → kind echo", () => {
    expect(fb("messenger-echo")).toStrictEqual([
      {
        platform: "PLATFORM_C",
        senderId: PAGE,
        kind: "echo",
        to: party({ user_id: PSID }),
        message: message({ id: BIZ2, received_at: iso(19000), text: "Yes, 10am to 4pm." }),
      },
    ]);
  });

  it("several entries and items: one event each; opt-ins and sender-less items skipped", () => {
    const payload = fixture("messenger-multiple");
    expect(normalizeMessengerWebhook("PLATFORM_C", payload)).toStrictEqual([
      fromFb(message({ id: MID, received_at: iso(20000), text: "One" })),
      {
        platform: "PLATFORM_C",
        senderId: PAGE,
        kind: "status",
        platform_message_id: BIZ1,
        status: "delivered",
        timestamp: iso(20001),
        recipient_id: null,
        recipient_user_id: PSID,
        errors: [],
        raw: at(payload, "entry", 0, "messaging", 1),
      },
      fromFb(message({ id: MID2, received_at: iso(20100), text: "Two, from someone else" }), "6123456789012345"),
    ]);
  });
});

describe("PLATFORM_B / PLATFORM_C garbage", () => {
  it.each([
    ["null", null],
    ["a string", "{}"],
    ["an array", []],
    ["an empty object", {}],
    ["a PLATFORM_A payload", fixture("platform-a-text")],
    ["entry not an array", { object: "page", entry: { id: PAGE } }],
    ["messaging items of the wrong shape", { object: "instagram", entry: [{ id: IG_ACCOUNT, messaging: [null, 1, "x", { sender: "me" }] }] }],
    [
      "a message without mid",
      { object: "page", entry: [{ id: PAGE, messaging: [{ sender: { id: PSID }, recipient: { id: PAGE }, timestamp: T, message: { text: "hi" } }] }] },
    ],
  ])("%s → []", (_label, payload) => {
    expect(normalizeMessengerWebhook("PLATFORM_B", payload)).toStrictEqual([]);
    expect(normalizeMessengerWebhook("PLATFORM_C", payload)).toStrictEqual([]);
  });
});
