import { describe, expect, it } from "vitest";
import { normalizePlatformAWebhook } from "@/lib/domain/ingest/normalize-platform-a";
import type { InboundEvent, InboundMedia, InboundParty, NormalizedInboundMessage } from "@/lib/domain/ingest/types";
import { at, fixture, interactive, message, party, wamid } from "./support";

const PHONE_NUMBER_ID = "106540352242922";
const BUSINESS = "15550783881";
const USER = "16505551234";
const BSUID = "US.13491208655302741918";
const SHEENA = party({ address: USER, user_id: BSUID, name: "Sheena Nelson" });
const BIZ_MSG = wamid(BUSINESS, "BIZ0000000000000000A");
/** Fixture timestamps are 1749416383 (= 2025-06-08T20:59:43Z) plus an offset in seconds. */
const iso = (offset: number) => new Date(Date.parse("2025-06-08T20:59:43.000Z") + offset * 1000).toISOString();
const id = (tail: string) => wamid(USER, tail);

const normalize = (name: string) => normalizePlatformAWebhook(fixture(name));

function received(m: NormalizedInboundMessage, from: InboundParty = SHEENA): InboundEvent {
  return { platform: "PLATFORM_A", senderId: PHONE_NUMBER_ID, kind: "message", from, message: m };
}

function media(m: Partial<InboundMedia> & Pick<InboundMedia, "type" | "provider_media_id">): InboundMedia {
  return { provider: "platform_a", source_url: null, mime_type: null, file_name: null, sha256: null, caption: null, ...m };
}

describe("PLATFORM_A messages", () => {
  it("text: sender from contacts (wa_id, BSUID, profile name), unix seconds → ISO", () => {
    expect(normalize("platform-a-text")).toStrictEqual([
      received(message({ id: id("3A4A6599AEE03810144F"), received_at: "2025-06-08T20:59:43.000Z", text: "Does it come in another color?" })),
    ]);
  });

  it("image: media id, mime, sha256 and caption; text null; the lookaside url is not a source_url", () => {
    expect(normalize("platform-a-image")).toStrictEqual([
      received(
        message({
          id: id("3A1B2C3D4E5F60718293"),
          received_at: "2025-06-08T20:59:53.000Z",
          type: "image",
          media: media({
            type: "image",
            provider_media_id: "1003383421387256",
            mime_type: "image/jpeg",
            sha256: "4mT2d1i6mWq8vG1yX9bqJbq6m6Vb6Q0q1kU2mB4YvTQ=",
            caption: "This one, in blue",
          }),
        }),
      ),
    ]);
  });

  it("audio: voice note flag", () => {
    expect(normalize("platform-a-audio-voice")).toStrictEqual([
      received(
        message({
          id: id("3A2B3C4D5E6F70819203"),
          received_at: iso(20),
          type: "audio",
          media: media({
            type: "audio",
            provider_media_id: "1185672402954210",
            mime_type: "audio/ogg; codecs=opus",
            sha256: "pYb3m0xk0M8fG2iA1ZbH6y0Vq3s8w2mB7nT4cR9dE1o=",
            voice: true,
          }),
        }),
      ),
    ]);
  });

  it("video", () => {
    expect(normalize("platform-a-video")).toStrictEqual([
      received(
        message({
          id: id("3A3B4C5D6E7F80912304"),
          received_at: iso(30),
          type: "video",
          media: media({
            type: "video",
            provider_media_id: "2274918263548291",
            mime_type: "video/mp4",
            sha256: "Zk4w1V9pQe7yB2cN5mX8sT3uR6oL0aH4jG2fD1eC9bA=",
            caption: "Unboxing",
          }),
        }),
      ),
    ]);
  });

  it("document: filename → file_name", () => {
    expect(normalize("platform-a-document")).toStrictEqual([
      received(
        message({
          id: id("3A4B5C6D7E8F90A12345"),
          received_at: iso(40),
          type: "document",
          media: media({
            type: "document",
            provider_media_id: "1642850149987745",
            mime_type: "application/pdf",
            sha256: "Qw3rTy7uI0oP2aS5dF8gH1jK4lZ6xC9vB3nM5qW7eR0=",
            caption: "Invoice for March",
            file_name: "invoice-2025-03.pdf",
          }),
        }),
      ),
    ]);
  });

  it("sticker: animated flag", () => {
    expect(normalize("platform-a-sticker")).toStrictEqual([
      received(
        message({
          id: id("3A5B6C7D8E9FA0B23456"),
          received_at: iso(50),
          type: "sticker",
          media: media({
            type: "sticker",
            provider_media_id: "924513879318405",
            mime_type: "image/webp",
            sha256: "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3Ab4C=",
            animated: true,
          }),
        }),
      ),
    ]);
  });

  it("location: coordinates, name, address, url; text is the place name", () => {
    expect(normalize("platform-a-location")).toStrictEqual([
      received(
        message({
          id: id("3A6B7C8D9EAFB0C34567"),
          received_at: iso(60),
          type: "location",
          text: "Meta Headquarters",
          location: {
            latitude: 37.483872693672,
            longitude: -122.14835165083,
            name: "Meta Headquarters",
            address: "1 Hacker Way, Menlo Park, CA 94025",
            url: "https://www.facebook.com/places/Meta-HQ",
          },
        }),
      ),
    ]);
  });

  it("contacts: full cards", () => {
    expect(normalize("platform-a-contacts")).toStrictEqual([
      received(
        message({
          id: id("3A7B8C9DAEBFC0D45678"),
          received_at: iso(70),
          type: "contacts",
          contacts: [
            {
              name: { formatted_name: "Pablo Morales", first_name: "Pablo", last_name: "Morales" },
              birthday: "1999-01-23",
              phones: [
                { phone: "+1 (650) 555-1234", type: "WORK", wa_id: "16505551234" },
                { phone: "+1 (650) 555-9876", type: "HOME" },
              ],
              emails: [{ email: "pablo@example.com", type: "WORK" }],
              urls: [{ url: "https://www.luckyshrub.com", type: "WORK" }],
              addresses: [
                {
                  street: "1 Hacker Way",
                  city: "Menlo Park",
                  state: "CA",
                  zip: "94025",
                  country: "United States",
                  country_code: "us",
                  type: "WORK",
                },
              ],
              org: { company: "Lucky Shrub", department: "Sales", title: "Manager" },
            },
          ],
        }),
      ),
    ]);
  });

  it("system user_changed_number: system message plus an identity change to the new number", () => {
    const from = party({ address: USER });
    const body = "User Sheena Nelson changed from 16505551234 to 12195555358";
    expect(normalize("platform-a-system-changed-number")).toStrictEqual([
      received(
        message({
          id: id("3A8B9CADBECFD0E56789"),
          received_at: iso(80),
          type: "system",
          text: body,
          system: { type: "user_changed_number", body, wa_id: "12195555358", user_id: null },
        }),
        from,
      ),
      {
        platform: "PLATFORM_A",
        senderId: PHONE_NUMBER_ID,
        kind: "identity_change",
        timestamp: iso(80),
        previous: from,
        current: party({ address: "12195555358" }),
      },
    ]);
  });

  it("system user_changed_user_id: the new BSUID (and parent BSUID) become the current identity", () => {
    const from = party({ address: USER, user_id: BSUID });
    const body = "User Sheena Nelson's business-scoped user ID changed";
    expect(normalize("platform-a-system-user-id-changed")).toStrictEqual([
      received(
        message({
          id: id("3A9BAACBCCDDE0F6789A"),
          received_at: iso(85),
          type: "system",
          text: body,
          system: { type: "user_changed_user_id", body, wa_id: USER, user_id: "US.20938475610293847561" },
        }),
        from,
      ),
      {
        platform: "PLATFORM_A",
        senderId: PHONE_NUMBER_ID,
        kind: "identity_change",
        timestamp: iso(85),
        previous: from,
        current: party({ address: USER, user_id: "US.20938475610293847561", parent_user_id: "US.ENT.20938475610293847000" }),
      },
    ]);
  });
});

describe("PLATFORM_A interactive replies", () => {
  const repliedTo = { message_id: BIZ_MSG, from: BUSINESS };

  it("button_reply", () => {
    expect(normalize("platform-a-button-reply")).toStrictEqual([
      received(
        message({
          id: id("3AB0C1D2E3F405162738"),
          received_at: iso(90),
          type: "interactive",
          text: "Cancel",
          replied_to: repliedTo,
          interactive: interactive({ type: "button_reply", id: "cancel-button", title: "Cancel" }),
        }),
      ),
    ]);
  });

  it("list_reply with description", () => {
    expect(normalize("platform-a-list-reply")).toStrictEqual([
      received(
        message({
          id: id("3AB1C2D3E4F506172839"),
          received_at: iso(100),
          type: "interactive",
          text: "Priority Mail Express",
          replied_to: repliedTo,
          interactive: interactive({
            type: "list_reply",
            id: "priority_express",
            title: "Priority Mail Express",
            description: "Next Day to 2 Days",
          }),
        }),
      ),
    ]);
  });

  it("nfm_reply (Flow completion): parsed response_json and its flow_token", () => {
    expect(normalize("platform-a-flow-completion")).toStrictEqual([
      received(
        message({
          id: id("3AB2C3D4E5F60718293A"),
          received_at: iso(110),
          type: "interactive",
          text: "Sent",
          replied_to: repliedTo,
          interactive: interactive({
            type: "nfm_reply",
            flow_token: "svcft_01JXK4QZ8N6T3W9R2M5B7C1D0E",
            response: {
              flow_token: "svcft_01JXK4QZ8N6T3W9R2M5B7C1D0E",
              full_name: "Sheena Nelson",
              party_size: "4",
              dietary: ["vegetarian"],
            },
          }),
        }),
      ),
    ]);
  });

  it("nfm_reply with an unparsable response_json: response and flow_token null, message kept", () => {
    expect(normalize("platform-a-flow-bad-json")).toStrictEqual([
      received(
        message({
          id: id("3AB3C4D5E6F708192A3B"),
          received_at: iso(115),
          type: "interactive",
          text: "Sent",
          replied_to: repliedTo,
          interactive: interactive({ type: "nfm_reply" }),
        }),
      ),
    ]);
  });

  it("template quick-reply button: type interactive, interactive.type button with payload", () => {
    expect(normalize("platform-a-template-button")).toStrictEqual([
      received(
        message({
          id: id("3AB4C5D6E7F8091A2B3C"),
          received_at: iso(120),
          type: "interactive",
          text: "Stop promotions",
          replied_to: { message_id: wamid(BUSINESS, "BIZTEMPLATE000000001"), from: BUSINESS },
          interactive: interactive({ type: "button", title: "Stop promotions", payload: "STOP_PROMOTIONS" }),
        }),
      ),
    ]);
  });
});

describe("PLATFORM_A unsupported, deletes, edits, reactions, replies", () => {
  const unknownType = {
    code: 131051,
    title: "Message type unknown",
    message: "Message type unknown",
    error_data: { details: "Message type is currently not supported." },
  };

  it("unsupported: text null, unsupported {type, raw_type, errors}", () => {
    expect(normalize("platform-a-unsupported")).toStrictEqual([
      received(
        message({
          id: id("3AB5C6D7E8F9A0B1C2D3"),
          received_at: iso(130),
          type: "unsupported",
          unsupported: { type: "poll_creation", raw_type: "unsupported", errors: [unknownType] },
        }),
      ),
    ]);
  });

  it("unsupported whose subtype is edit stays an unsupported record", () => {
    expect(normalize("platform-a-unsupported-edit")).toStrictEqual([
      received(
        message({
          id: id("3AB6C7D8E9FAB0C1D2E4"),
          received_at: iso(135),
          type: "unsupported",
          unsupported: { type: "edit", raw_type: "unsupported", errors: [unknownType] },
        }),
      ),
    ]);
  });

  it("131060 message unavailable", () => {
    expect(normalize("platform-a-unavailable")).toStrictEqual([
      received(
        message({
          id: id("3AB7C8D9EAFBC0D1E2F5"),
          received_at: iso(137),
          type: "unsupported",
          unsupported: {
            type: "media_placeholder",
            raw_type: "unsupported",
            errors: [
              {
                code: 131060,
                title: "This message is currently unavailable.",
                message: "This message is currently unavailable.",
                error_data: { details: "Message is currently unavailable. Please check back later." },
              },
            ],
          },
        }),
      ),
    ]);
  });

  it("a provider type svc does not model (order) is recorded as unsupported", () => {
    expect(normalize("platform-a-order")).toStrictEqual([
      received(
        message({
          id: id("3AC9DAEBFC0D1E2F3051"),
          received_at: iso(190),
          type: "unsupported",
          unsupported: { type: "order", raw_type: "order", errors: [] },
        }),
      ),
    ]);
  });

  it("request_welcome is not a customer message", () => {
    expect(normalize("platform-a-request-welcome")).toStrictEqual([]);
  });

  it("revoke", () => {
    expect(normalize("platform-a-revoke")).toStrictEqual([
      received(
        message({
          id: id("3AC0D1E2F3041526374A"),
          received_at: iso(140),
          type: "revoke",
          revoke: { original_message_id: id("3A4A6599AEE03810144F") },
        }),
      ),
    ]);
  });

  it("edit of a text", () => {
    const body = "Does it come in another colour?";
    expect(normalize("platform-a-edit")).toStrictEqual([
      received(
        message({
          id: id("3AC1D2E3F405162738AB"),
          received_at: iso(150),
          type: "edit",
          text: body,
          edit: { original_message_id: id("3A4A6599AEE03810144F"), message: { type: "text", text: { body } } },
        }),
      ),
    ]);
  });

  it("edit of a media caption: the new caption is the body; the inner context is not a reply", () => {
    const body = "This one, in navy";
    expect(normalize("platform-a-edit-caption")).toStrictEqual([
      received(
        message({
          id: id("3AC2D3E4F50617283ABC"),
          received_at: iso(155),
          type: "edit",
          text: body,
          edit: { original_message_id: id("3A1B2C3D4E5F60718293"), message: { type: "image", text: { body } } },
        }),
      ),
    ]);
  });

  it("reaction", () => {
    expect(normalize("platform-a-reaction")).toStrictEqual([
      received(
        message({
          id: id("3AC3D4E5F607182934AB"),
          received_at: iso(160),
          type: "reaction",
          text: "👍",
          reaction: { message_id: BIZ_MSG, emoji: "👍" },
        }),
      ),
    ]);
  });

  it("reaction removed: emoji omitted → empty string", () => {
    expect(normalize("platform-a-reaction-removed")).toStrictEqual([
      received(
        message({
          id: id("3AC4D5E6F70819203ABC"),
          received_at: iso(165),
          type: "reaction",
          reaction: { message_id: BIZ_MSG, emoji: "" },
        }),
      ),
    ]);
  });

  it("reply: replied_to {message_id, from}", () => {
    expect(normalize("platform-a-reply")).toStrictEqual([
      received(
        message({
          id: id("3AC5D6E7F8091A2B3CDE"),
          received_at: iso(170),
          text: "Yes, the second one",
          replied_to: { message_id: wamid(BUSINESS, "BIZ0000000000000000B"), from: BUSINESS },
        }),
      ),
    ]);
  });

  it("forwarded (context without id) is not a reply", () => {
    expect(normalize("platform-a-forwarded")).toStrictEqual([
      received(message({ id: id("3AC6D7E8F90A1B2C3DEF"), received_at: iso(175), text: "Look at this deal" })),
    ]);
  });

  it("product enquiry: quotes the catalog message", () => {
    expect(normalize("platform-a-product-enquiry")).toStrictEqual([
      received(
        message({
          id: id("3AC8D9EAFB0C1D2E3F50"),
          received_at: iso(185),
          text: "Is this in stock?",
          replied_to: { message_id: wamid(BUSINESS, "BIZCATALOG0000000001"), from: BUSINESS },
        }),
      ),
    ]);
  });

  it("click-to-chat ad referral is kept", () => {
    const payload = fixture("platform-a-referral");
    expect(normalizePlatformAWebhook(payload)).toStrictEqual([
      received(
        message({
          id: id("3AC7D8E9FA0B1C2D3E4F"),
          received_at: iso(180),
          text: "Hi, is this still available?",
          referral: at(payload, "entry", 0, "changes", 0, "value", "messages", 0, "referral"),
        }),
      ),
    ]);
  });
});

describe("PLATFORM_A senders and deliveries", () => {
  it("username-only sender: address null, BSUID, parent BSUID and username set", () => {
    expect(normalize("platform-a-username-only")).toStrictEqual([
      received(
        message({ id: id("3AD0E1F2031425364758"), received_at: iso(200), text: "Hello from a username" }),
        party({
          user_id: "BR.1502576394655843",
          parent_user_id: "BR.ENT.9182736450192837",
          username: "maria.lopez",
          name: "Maria Lopez",
        }),
      ),
    ]);
  });

  it("several messages from two senders in one delivery: one event each, matched to its contact", () => {
    const oliver = party({ address: "447700900123", user_id: "GB.77120398475610293847", name: "Oliver Smith" });
    expect(normalize("platform-a-multiple")).toStrictEqual([
      received(message({ id: id("3AD1E2F30415263748A9"), received_at: iso(210), text: "First" })),
      received(message({ id: wamid("447700900123", "3AD2E3F405162738495A"), received_at: iso(211), text: "Second, from Oliver" }), oliver),
      received(
        message({
          id: id("3AD3E4F50617283940AB"),
          received_at: iso(212),
          type: "image",
          media: media({
            type: "image",
            provider_media_id: "1398274650192837",
            mime_type: "image/jpeg",
            sha256: "0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1=",
          }),
        }),
      ),
    ]);
  });

  it("malformed items (no id, bad timestamp, media without id, non-object, unknown status) are skipped", () => {
    expect(normalize("platform-a-partly-malformed")).toStrictEqual([
      received(message({ id: id("3AD6E7F8091A2B3C4D5E"), received_at: iso(222), text: "this one is fine" })),
    ]);
  });
});

describe("PLATFORM_A statuses", () => {
  const outbound = id("BIZ0000000000000000C");
  const statusOf = (name: string, status: string, offset: number, rest: Record<string, unknown>) => {
    const payload = fixture(name);
    return [
      normalizePlatformAWebhook(payload),
      [
        {
          platform: "PLATFORM_A",
          senderId: PHONE_NUMBER_ID,
          kind: "status",
          platform_message_id: outbound,
          status,
          timestamp: iso(offset),
          recipient_id: USER,
          recipient_user_id: BSUID,
          errors: [],
          raw: at(payload, "entry", 0, "changes", 0, "value", "statuses", 0),
          ...rest,
        },
      ],
    ] as const;
  };

  it.each([
    ["platform-a-status-sent", "sent", 300],
    ["platform-a-status-delivered", "delivered", 301],
    ["platform-a-status-read", "read", 302],
  ] as const)("%s", (name, status, offset) => {
    const [actual, expected] = statusOf(name, status, offset, {});
    expect(actual).toStrictEqual(expected);
  });

  it("failed: errors kept; no recipient_user_id when sent to a phone number", () => {
    const [actual, expected] = statusOf("platform-a-status-failed", "failed", 303, {
      recipient_user_id: null,
      errors: [
        {
          code: 131047,
          title: "Re-engagement message",
          message: "Re-engagement message",
          error_data: { details: "Message failed to send because more than 24 hours have passed since the customer last replied to this number." },
          href: "https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/",
        },
      ],
    });
    expect(actual).toStrictEqual(expected);
  });

  it("sent to a BSUID: recipient_id null, recipient_user_id set", () => {
    const payload = fixture("platform-a-status-bsuid");
    expect(normalizePlatformAWebhook(payload)).toStrictEqual([
      {
        platform: "PLATFORM_A",
        senderId: PHONE_NUMBER_ID,
        kind: "status",
        platform_message_id: wamid("5511987654321", "BIZ0000000000000000D"),
        status: "delivered",
        timestamp: iso(304),
        recipient_id: null,
        recipient_user_id: "BR.1502576394655843",
        errors: [],
        raw: at(payload, "entry", 0, "changes", 0, "value", "statuses", 0),
      },
    ]);
  });
});

describe("PLATFORM_A calls", () => {
  const CALL_ID = "wacid.HBgLMTY1MDU1NTEyMzQVAgARGCAyQTg5QjNFNjlDNDJGRTVCMjc0QjFGMTI1QjE2OEQ1NxwYCzE1NTUwNzgzODgxFQIAAA==";

  it.each([
    ["platform-a-call-connect", "connect", 400],
    ["platform-a-call-terminate", "terminate", 460],
  ] as const)("%s → call_kind call, original item (SDP included) kept", (name, event, offset) => {
    const payload = fixture(name);
    expect(normalizePlatformAWebhook(payload)).toStrictEqual([
      {
        platform: "PLATFORM_A",
        senderId: PHONE_NUMBER_ID,
        kind: "call",
        call_kind: "call",
        call_id: CALL_ID,
        event,
        timestamp: iso(offset),
        call: at(payload, "entry", 0, "changes", 0, "value", "calls", 0),
      },
    ]);
  });

  it("call status item → call_kind status, event is the status", () => {
    const payload = fixture("platform-a-call-status");
    expect(normalizePlatformAWebhook(payload)).toStrictEqual([
      {
        platform: "PLATFORM_A",
        senderId: PHONE_NUMBER_ID,
        kind: "call",
        call_kind: "status",
        call_id: "wacid.HBgLMTIxODU1NTI4MjgVAgARGCAyODRQIAFRoA",
        event: "RINGING",
        timestamp: iso(500),
        call: at(payload, "entry", 0, "changes", 0, "value", "statuses", 0),
      },
    ]);
  });
});

describe("PLATFORM_A coexistence", () => {
  it("smb_message_echoes → kind echo with the recipient as `to` (leading + dropped)", () => {
    expect(normalize("platform-a-echo")).toStrictEqual([
      {
        platform: "PLATFORM_A",
        senderId: PHONE_NUMBER_ID,
        kind: "echo",
        to: party({ address: USER }),
        message: message({ id: wamid(BUSINESS, "ECHO0000000000000001"), received_at: iso(600), text: "Sure, I'll send you the catalog now." }),
      },
    ]);
  });

  it("echoed revoke (deleted from the business app)", () => {
    expect(normalize("platform-a-echo-revoke")).toStrictEqual([
      {
        platform: "PLATFORM_A",
        senderId: PHONE_NUMBER_ID,
        kind: "echo",
        to: party({ address: USER, user_id: BSUID }),
        message: message({
          id: wamid(BUSINESS, "ECHO0000000000000002"),
          received_at: iso(610),
          type: "revoke",
          revoke: { original_message_id: wamid(BUSINESS, "ECHO0000000000000001") },
        }),
      },
    ]);
  });

  it("smb_app_state_sync (contact book sync) yields nothing", () => {
    expect(normalize("platform-a-app-state-sync")).toStrictEqual([]);
  });
});

describe("PLATFORM_A garbage", () => {
  it.each([
    ["null", null],
    ["a string", "hello"],
    ["a number", 42],
    ["an array", [1, 2]],
    ["an empty object", {}],
    ["a page payload", { object: "page", entry: [{ id: "1", messaging: [] }] }],
    ["no entry", { object: "whatsapp_business_account" }],
    ["entry not an array", { object: "whatsapp_business_account", entry: "nope" }],
    [
      "change without metadata",
      { object: "whatsapp_business_account", entry: [{ id: "1", changes: [{ field: "messages", value: { messages: [{ id: "x" }] } }] }] },
    ],
  ])("%s → []", (_label, payload) => {
    expect(normalizePlatformAWebhook(payload)).toStrictEqual([]);
  });

  it("a timestamp out of Date's range skips the item instead of throwing", () => {
    const payload = structuredClone(fixture("platform-a-text")) as { entry: { changes: { value: { messages: { timestamp: unknown }[] } }[] }[] };
    const item = payload.entry[0]?.changes[0]?.value.messages[0];
    if (!item) throw new Error("fixture shape changed");
    item.timestamp = 1e21;
    expect(normalizePlatformAWebhook(payload)).toStrictEqual([]);
  });
});
