import { describe, expect, it } from "vitest";
import type { OutboundContent } from "@/lib/ports/provider/outbound";
import { toMessengerBody, type MessengerPlatform } from "@/lib/ports/provider/messenger";
import { ProviderError } from "@/lib/ports/provider/types";
import { validateMessengerBody } from "@/lib/simulator/validate-messenger";

const TO = "6543210987";

function body(platform: MessengerPlatform, content: OutboundContent, replyTo?: string) {
  const out = toMessengerBody(platform, TO, replyTo ? { content, replyTo } : { content });
  expect(validateMessengerBody(platform, out)).toBeNull();
  return out;
}

function refused(platform: MessengerPlatform, content: OutboundContent): ProviderError {
  try {
    toMessengerBody(platform, TO, { content });
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    const e = error as ProviderError;
    expect(e.retryable).toBe(false);
    expect(e.failure.code).toBe("unsupported_content");
    return e;
  }
  throw new Error("expected a ProviderError");
}

describe.each(["PLATFORM_B", "PLATFORM_C"] as const)("toMessengerBody %s", (platform) => {
  it("text", () => {
    expect(body(platform, { kind: "text", text: "Hi!" })).toEqual({
      recipient: { id: TO },
      messaging_type: "RESPONSE",
      message: { text: "Hi!" },
    });
  });

  it("reply_to sits beside message", () => {
    expect(body(platform, { kind: "text", text: "Yes" }, "m_abc")).toEqual({
      recipient: { id: TO },
      messaging_type: "RESPONSE",
      message: { text: "Yes" },
      reply_to: { mid: "m_abc" },
    });
  });

  it.each([
    ["image", "image"],
    ["video", "video"],
    ["audio", "audio"],
  ] as const)("%s by link is an attachment of type %s", (type, attachmentType) => {
    expect(body(platform, { kind: "media", media: { type, link: `https://cdn.example/f.${type}` } })).toEqual({
      recipient: { id: TO },
      messaging_type: "RESPONSE",
      message: { attachment: { type: attachmentType, payload: { url: `https://cdn.example/f.${type}`, is_reusable: false } } },
    });
  });

  it("sticker by link is an image attachment", () => {
    expect(body(platform, { kind: "sticker", sticker: { link: "https://cdn.example/s.png" } }).message).toEqual({
      attachment: { type: "image", payload: { url: "https://cdn.example/s.png", is_reusable: false } },
    });
  });

  it("reply buttons become text with quick replies", () => {
    expect(
      body(platform, {
        kind: "interactive",
        interactive: {
          type: "button",
          header: { type: "text", text: "Order 42" },
          body: "Confirm?",
          footer: "Tap one",
          buttons: [
            { id: "yes", title: "Yes" },
            { id: "no", title: "No" },
          ],
        },
      }),
    ).toEqual({
      recipient: { id: TO },
      messaging_type: "RESPONSE",
      message: {
        text: "Order 42\n\nConfirm?\n\nTap one",
        quick_replies: [
          { content_type: "text", title: "Yes", payload: "yes" },
          { content_type: "text", title: "No", payload: "no" },
        ],
      },
    });
  });

  it("a list becomes text with one quick reply per row, titles cut to 20 characters", () => {
    expect(
      body(platform, {
        kind: "interactive",
        interactive: {
          type: "list",
          body: "Pick a slot",
          button: "Slots",
          sections: [
            { title: "AM", rows: [{ id: "r1", title: "Tuesday 9:00 morning!!", description: "x" }] },
            { title: "PM", rows: [{ id: "r2", title: "15:00" }] },
          ],
        },
      }).message,
    ).toEqual({
      text: "Pick a slot",
      quick_replies: [
        { content_type: "text", title: "Tuesday 9:00 morning", payload: "r1" },
        { content_type: "text", title: "15:00", payload: "r2" },
      ],
    });
  });

  it("more than 13 options are refused", () => {
    const rows = Array.from({ length: 14 }, (_, i) => ({ id: `r${i}`, title: `Row ${i}` }));
    refused(platform, { kind: "interactive", interactive: { type: "list", body: "b", button: "x", sections: [{ rows }] } });
  });

  it("reaction removal is unreact", () => {
    expect(body(platform, { kind: "reaction", reaction: { message_id: "m_1", emoji: "" } })).toEqual({
      recipient: { id: TO },
      sender_action: "unreact",
      payload: { message_id: "m_1" },
    });
  });

  it.each([
    ["template", { kind: "template", template: { name: "t", language: "en" } }],
    ["location", { kind: "location", location: { latitude: 1, longitude: 2 } }],
    ["contacts", { kind: "contacts", contacts: [{ name: { formatted_name: "A", first_name: "A" } }] }],
    ["cta_url", { kind: "interactive", interactive: { type: "cta_url", body: "b", display_text: "Go", url: "https://x.example" } }],
    ["location request", { kind: "interactive", interactive: { type: "location_request_message", body: "b" } }],
    ["contact request", { kind: "interactive", interactive: { type: "request_contact_info", body: "b" } }],
    ["media by id", { kind: "media", media: { type: "image", id: "123" } }],
    ["media with caption", { kind: "media", media: { type: "image", link: "https://x.example/a.png", caption: "c" } }],
    ["sticker by id", { kind: "sticker", sticker: { id: "s" } }],
  ] satisfies [string, OutboundContent][])("%s is refused with a final ProviderError", (_name, content) => {
    refused(platform, content);
  });
});

describe("platform differences", () => {
  it("PLATFORM_C sends the emoji itself as the reaction", () => {
    expect(body("PLATFORM_C", { kind: "reaction", reaction: { message_id: "m_1", emoji: "😂" } })).toEqual({
      recipient: { id: TO },
      sender_action: "react",
      payload: { message_id: "m_1", reaction: "😂" },
    });
  });

  it("PLATFORM_B has a single reaction, love", () => {
    expect(body("PLATFORM_B", { kind: "reaction", reaction: { message_id: "aWdf1", emoji: "😂" } })).toEqual({
      recipient: { id: TO },
      sender_action: "react",
      payload: { message_id: "aWdf1", reaction: "love" },
    });
  });

  it("documents are files on PLATFORM_C and refused on PLATFORM_B", () => {
    expect(body("PLATFORM_C", { kind: "media", media: { type: "document", link: "https://cdn.example/a.pdf" } }).message).toEqual({
      attachment: { type: "file", payload: { url: "https://cdn.example/a.pdf", is_reusable: false } },
    });
    refused("PLATFORM_B", { kind: "media", media: { type: "document", link: "https://cdn.example/a.pdf" } });
  });
});
