import { describe, expect, it } from "vitest";
import { SvcError, type ErrorCode } from "@/lib/errors";
import type { InteractiveContent, MediaContent, MediaType, OutboundContent, OutboundMessage } from "@/lib/ports/provider/outbound";
import {
  MEDIA_SIZE_LIMITS,
  MEDIA_SUPPORT,
  MESSAGING_PLATFORMS,
  SUPPORTED_CONTENT,
  assertContentSupported,
  mediaSizeLimit,
  type MessagingPlatform,
} from "@/lib/domain/messages/platform-rules";

const [A, B, C] = MESSAGING_PLATFORMS;
const OK = null;

/** The SvcError assertContentSupported throws, or null when the message is allowed. */
function errorOf(platform: string, content: OutboundContent, replyTo?: string): SvcError | null {
  const message: OutboundMessage = replyTo === undefined ? { content } : { content, replyTo };
  try {
    assertContentSupported(platform, message);
    return null;
  } catch (error) {
    if (SvcError.is(error)) return error;
    throw error;
  }
}

const LINK = "https://example.com/file";
const media = (value: MediaContent): OutboundContent => ({ kind: "media", media: value });
const interactive = (value: InteractiveContent): OutboundContent => ({ kind: "interactive", interactive: value });
const BUTTONS = [{ id: "a", title: "A" }];

/** Content per kind, one sample each, that PLATFORM_A accepts. */
const SAMPLES: Record<OutboundContent["kind"], OutboundContent> = {
  text: { kind: "text", text: "Hello" },
  template: { kind: "template", template: { name: "welcome", language: "en_US" } },
  media: media({ type: "image", link: LINK }),
  interactive: interactive({ type: "button", body: "Pick", buttons: BUTTONS }),
  reaction: { kind: "reaction", reaction: { message_id: "mid.1", emoji: "👍" } },
  location: { kind: "location", location: { latitude: 1, longitude: 2, name: "Office" } },
  contacts: { kind: "contacts", contacts: [{ name: { formatted_name: "Ada", last_name: "Lovelace" } }] },
  sticker: { kind: "sticker", sticker: { id: "st_1" } },
};

// [case, content, expected code on A, B, C]
type Row = [string, OutboundContent, ErrorCode | null, ErrorCode | null, ErrorCode | null];

const FEATURE = "feature_unsupported_on_channel" as const;
const MEDIA = "media_unsupported_on_channel" as const;
const INTERACTIVE = "interactive_type_unsupported_on_channel" as const;

const rows: Row[] = [
  ["text", SAMPLES.text, OK, OK, OK],
  ["template by name", SAMPLES.template, OK, FEATURE, FEATURE],
  ["template by id", { kind: "template", template: { id: "tmpl_1" } }, OK, FEATURE, FEATURE],
  ["reaction", SAMPLES.reaction, OK, OK, OK],
  ["reaction removal (empty emoji)", { kind: "reaction", reaction: { message_id: "mid.1", emoji: "" } }, OK, OK, OK],
  ["location", SAMPLES.location, OK, FEATURE, FEATURE],
  ["contacts", SAMPLES.contacts, OK, FEATURE, FEATURE],
  ["sticker by id", SAMPLES.sticker, OK, FEATURE, FEATURE],
  ["sticker by link", { kind: "sticker", sticker: { link: "https://example.com/s.webp" } }, OK, FEATURE, FEATURE],
  // media: types x locators (spec Rule 3)
  ...(["image", "video", "audio"] as const).flatMap((type): Row[] => [
    [`${type} by link`, media({ type, link: LINK }), OK, OK, OK],
    [`${type} by id`, media({ type, id: "123" }), OK, MEDIA, MEDIA],
  ]),
  ["document by link", media({ type: "document", link: LINK }), OK, MEDIA, OK],
  ["document by id", media({ type: "document", id: "123" }), OK, MEDIA, MEDIA],
  // media: caption and filename (spec Rule 4)
  ["image with caption", media({ type: "image", link: LINK, caption: "Look" }), OK, MEDIA, MEDIA],
  ["video with caption", media({ type: "video", link: LINK, caption: "Look" }), OK, MEDIA, MEDIA],
  ["document with filename", media({ type: "document", link: LINK, filename: "a.pdf" }), OK, MEDIA, MEDIA],
  ["document with caption", media({ type: "document", link: LINK, caption: "Invoice" }), OK, MEDIA, MEDIA],
  // interactive (spec Rule 5)
  ["interactive button", SAMPLES.interactive, OK, OK, OK],
  [
    "interactive button with text header and footer",
    interactive({ type: "button", body: "Pick", header: { type: "text", text: "Hi" }, footer: "f", buttons: BUTTONS }),
    OK,
    OK,
    OK,
  ],
  ["interactive list", interactive({ type: "list", body: "Pick", button: "Open", sections: [{ rows: [{ id: "r", title: "R" }] }] }), OK, OK, OK],
  [
    "interactive list with text header",
    interactive({ type: "list", body: "Pick", header: { type: "text", text: "Menu" }, button: "Open", sections: [{ rows: [{ id: "r", title: "R" }] }] }),
    OK,
    OK,
    OK,
  ],
  ["interactive cta_url", interactive({ type: "cta_url", body: "Offer", display_text: "Open", url: "https://example.com" }), OK, INTERACTIVE, INTERACTIVE],
  ["interactive location_request_message", interactive({ type: "location_request_message", body: "Where?" }), OK, INTERACTIVE, INTERACTIVE],
  ["interactive request_contact_info", interactive({ type: "request_contact_info", body: "Number?" }), OK, INTERACTIVE, INTERACTIVE],
  [
    "button with an image header",
    interactive({ type: "button", body: "Pick", header: { type: "image", image: { link: LINK } }, buttons: BUTTONS }),
    OK,
    MEDIA,
    MEDIA,
  ],
  [
    "button with a video header",
    interactive({ type: "button", body: "Pick", header: { type: "video", video: { id: "1" } }, buttons: BUTTONS }),
    OK,
    MEDIA,
    MEDIA,
  ],
  [
    "button with a document header",
    interactive({ type: "button", body: "Pick", header: { type: "document", document: { link: LINK } }, buttons: BUTTONS }),
    OK,
    MEDIA,
    MEDIA,
  ],
];

describe("assertContentSupported: every rule on every platform", () => {
  const table = rows.flatMap(([name, content, ...codes]) => MESSAGING_PLATFORMS.map((platform, i) => [name, platform, content, codes[i] ?? null] as const));

  it.each(table)("%s on %s", (_name, platform, content, code) => {
    const error = errorOf(platform, content);
    expect(error?.code ?? null).toBe(code);
    if (error) {
      expect(error.details.platform).toBe(platform);
      expect(error.message).toMatch(/instead/);
    }
  });

  it.each(table)("%s on %s: reply_to changes nothing", (_name, platform, content, code) => {
    expect(errorOf(platform, content, "mid.quoted")?.code ?? null).toBe(code);
  });
});

describe("error bodies say what is wrong and what the channel accepts", () => {
  it("documents on PLATFORM_B suggest a text link", () => {
    const error = errorOf(B, media({ type: "document", link: LINK }))!;
    expect(error.code).toBe("media_unsupported_on_channel");
    expect(error.message).toMatch(/text message with an https link/);
    expect(error.details).toEqual({ platform: B, field: "media.type", supported: ["image", "video", "audio"] });
  });

  it.each([B, C])("media by id on %s: field media.id, supported [link]", (platform) => {
    expect(errorOf(platform, media({ type: "image", id: "1" }))!.details).toEqual({ platform, field: "media.id", supported: ["link"] });
  });

  it.each([B, C])("caption and filename on %s name the field", (platform) => {
    expect(errorOf(platform, media({ type: "image", link: LINK, caption: "x" }))!.details).toEqual({ platform, field: "media.caption" });
    if (platform === C)
      expect(errorOf(platform, media({ type: "document", link: LINK, filename: "a.pdf" }))!.details).toEqual({ platform, field: "media.filename" });
  });

  it("several media problems: the type is reported first, then id, caption, filename", () => {
    expect(errorOf(B, media({ type: "document", id: "1", caption: "x", filename: "a.pdf" }))!.details.field).toBe("media.type");
    expect(errorOf(C, media({ type: "document", id: "1", caption: "x", filename: "a.pdf" }))!.details.field).toBe("media.id");
    expect(errorOf(C, media({ type: "document", link: LINK, caption: "x", filename: "a.pdf" }))!.details.field).toBe("media.caption");
  });

  it.each([B, C])("PLATFORM_A-only interactive types on %s list what is supported", (platform) => {
    const error = errorOf(platform, interactive({ type: "cta_url", body: "x", display_text: "Open", url: "https://example.com" }))!;
    expect(error.details).toEqual({ platform, field: "interactive.type", supported: ["button", "list"] });
    expect(error.message).toMatch(/cta_url/);
    expect(error.message).toMatch(/URL in a text message/);
  });

  it.each([B, C])("unsupported kinds on %s list the supported kinds", (platform) => {
    for (const kind of ["template", "location", "contacts", "sticker"] as const) {
      const error = errorOf(platform, SAMPLES[kind])!;
      expect(error.details).toEqual({ platform, field: kind, supported: ["text", "media", "interactive", "reaction"] });
    }
    expect(errorOf(platform, SAMPLES.template)!.message).toMatch(/24-hour window/);
    expect(errorOf(platform, SAMPLES.sticker)!.message).toMatch(/media \(type image, by link\)/);
  });

  it("media headers on B/C: supported [text]", () => {
    const error = errorOf(C, interactive({ type: "button", body: "Pick", header: { type: "image", image: { link: LINK } }, buttons: BUTTONS }))!;
    expect(error.details).toEqual({ platform: C, field: "interactive.header", supported: ["text"] });
  });
});

describe("other platforms", () => {
  it.each(["SMS", "PLATFORM_D", "EMAIL", "", "platform_a"])("%j: every content kind is 422 feature_unsupported_on_channel", (platform) => {
    for (const content of Object.values(SAMPLES)) {
      const error = errorOf(platform, content)!;
      expect(error.code).toBe("feature_unsupported_on_channel");
      expect(error.details).toEqual({ platform, field: "channel_id", supported: ["PLATFORM_A", "PLATFORM_B", "PLATFORM_C"] });
      expect(error.message).toMatch(/instead/);
    }
  });
});

describe("reactions need the message they react to", () => {
  it.each(MESSAGING_PLATFORMS)("an empty message_id on %s is invalid_request on reaction.message_id", (platform) => {
    const error = errorOf(platform, { kind: "reaction", reaction: { message_id: "", emoji: "👍" } })!;
    expect(error.code).toBe("invalid_request");
    expect(Object.keys(error.details.issues as object)).toEqual(["reaction.message_id"]);
  });
});

describe("tables", () => {
  it("PLATFORM_A sends every kind; B and C the same four", () => {
    expect([...SUPPORTED_CONTENT.PLATFORM_A].sort()).toEqual(Object.keys(SAMPLES).sort());
    expect(SUPPORTED_CONTENT.PLATFORM_B).toEqual(["text", "media", "interactive", "reaction"]);
    expect(SUPPORTED_CONTENT.PLATFORM_C).toEqual(SUPPORTED_CONTENT.PLATFORM_B);
  });

  it("media support follows spec Rule 3", () => {
    expect(MEDIA_SUPPORT.PLATFORM_A).toMatchObject({ types: ["image", "document", "video", "audio"], locators: ["link", "id"] });
    expect(MEDIA_SUPPORT.PLATFORM_B).toMatchObject({ types: ["image", "video", "audio"], locators: ["link"] });
    expect(MEDIA_SUPPORT.PLATFORM_C).toMatchObject({ types: ["image", "document", "video", "audio"], locators: ["link"] });
  });

  it("provider size limits in bytes (spec Rule 3)", () => {
    expect(MEDIA_SIZE_LIMITS).toEqual({
      PLATFORM_A: { image: 5242880, audio: 16777216, video: 16777216, document: 104857600 },
      PLATFORM_B: { image: 8388608, audio: 26214400, video: 26214400 },
      PLATFORM_C: { image: 26214400, audio: 26214400, video: 26214400, document: 26214400 },
    });
  });

  it.each<[string, MediaType, number | null]>([
    [A, "image", 5242880],
    [A, "document", 104857600],
    [B, "image", 8388608],
    [B, "document", null],
    [C, "document", 26214400],
    ["SMS", "image", null],
  ])("mediaSizeLimit(%s, %s) = %s", (platform, type, limit) => {
    expect(mediaSizeLimit(platform, type)).toBe(limit);
  });

  it("every media type the table lists has a size limit, and no other", () => {
    for (const platform of MESSAGING_PLATFORMS as readonly MessagingPlatform[]) {
      expect(Object.keys(MEDIA_SIZE_LIMITS[platform]).sort()).toEqual([...MEDIA_SUPPORT[platform].types].sort());
    }
  });
});
