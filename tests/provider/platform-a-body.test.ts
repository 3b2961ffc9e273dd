import { describe, expect, it } from "vitest";
import type { OutboundContent, OutboundMessage } from "@/lib/ports/provider/outbound";
import { toPlatformABody } from "@/lib/ports/provider/platform-a";
import { ProviderError } from "@/lib/ports/provider/types";
import { validatePlatformABody } from "@/lib/simulator/validate-a";

const TO = "15551234567";
const BASE = { messaging_product: "whatsapp", recipient_type: "individual", to: TO };

function body(content: OutboundContent, replyTo?: string) {
  const message: OutboundMessage = replyTo ? { content, replyTo } : { content };
  const out = toPlatformABody(TO, message);
  // Whatever the adapter builds, the simulator (which checks as the provider does) must accept.
  expect(validatePlatformABody(out)).toBeNull();
  return out;
}

describe("toPlatformABody", () => {
  it("text without a URL has no preview_url", () => {
    expect(body({ kind: "text", text: "Hello there" })).toEqual({ ...BASE, type: "text", text: { body: "Hello there" } });
  });

  it("text with a URL asks for a preview", () => {
    expect(body({ kind: "text", text: "See https://example.com/x" })).toEqual({
      ...BASE,
      type: "text",
      text: { body: "See https://example.com/x", preview_url: true },
    });
  });

  it("replyTo becomes context.message_id", () => {
    expect(body({ kind: "text", text: "ok" }, "wamid.ABC")).toEqual({
      ...BASE,
      type: "text",
      text: { body: "ok" },
      context: { message_id: "wamid.ABC" },
    });
  });

  it("image by link with caption", () => {
    expect(body({ kind: "media", media: { type: "image", link: "https://cdn.example/a.jpg", caption: "A" } })).toEqual({
      ...BASE,
      type: "image",
      image: { link: "https://cdn.example/a.jpg", caption: "A" },
    });
  });

  it("document by id with caption and filename", () => {
    expect(body({ kind: "media", media: { type: "document", id: "1234", caption: "Invoice", filename: "inv.pdf" } })).toEqual({
      ...BASE,
      type: "document",
      document: { id: "1234", caption: "Invoice", filename: "inv.pdf" },
    });
  });

  it("video by link keeps its caption but never a filename", () => {
    expect(body({ kind: "media", media: { type: "video", link: "https://cdn.example/v.mp4", caption: "V", filename: "v.mp4" } })).toEqual({
      ...BASE,
      type: "video",
      video: { link: "https://cdn.example/v.mp4", caption: "V" },
    });
  });

  it("audio by id drops caption and filename (the provider has neither for audio)", () => {
    expect(body({ kind: "media", media: { type: "audio", id: "999", caption: "x", filename: "a.ogg" } })).toEqual({
      ...BASE,
      type: "audio",
      audio: { id: "999" },
    });
  });

  it("sticker by id and by link", () => {
    expect(body({ kind: "sticker", sticker: { id: "st1" } })).toEqual({ ...BASE, type: "sticker", sticker: { id: "st1" } });
    expect(body({ kind: "sticker", sticker: { link: "https://cdn.example/s.webp" } })).toEqual({
      ...BASE,
      type: "sticker",
      sticker: { link: "https://cdn.example/s.webp" },
    });
  });

  it("location", () => {
    expect(body({ kind: "location", location: { latitude: 52.52, longitude: 13.405, name: "Office", address: "Street 1" } })).toEqual({
      ...BASE,
      type: "location",
      location: { latitude: 52.52, longitude: 13.405, name: "Office", address: "Street 1" },
    });
  });

  it("contacts pass through in the provider's card shape", () => {
    const card = {
      name: { formatted_name: "Ada Lovelace", first_name: "Ada" },
      phones: [{ phone: "+15550001", type: "CELL", wa_id: "15550001" }],
      emails: [{ email: "ada@example.com", type: "WORK" }],
    };
    expect(body({ kind: "contacts", contacts: [card] })).toEqual({ ...BASE, type: "contacts", contacts: [card] });
  });

  it("interactive reply buttons with header and footer", () => {
    expect(
      body({
        kind: "interactive",
        interactive: {
          type: "button",
          header: { type: "text", text: "Order 42" },
          body: "Confirm?",
          footer: "Reply below",
          buttons: [
            { id: "yes", title: "Yes" },
            { id: "no", title: "No" },
          ],
        },
      }),
    ).toEqual({
      ...BASE,
      type: "interactive",
      interactive: {
        type: "button",
        header: { type: "text", text: "Order 42" },
        body: { text: "Confirm?" },
        footer: { text: "Reply below" },
        action: {
          buttons: [
            { type: "reply", reply: { id: "yes", title: "Yes" } },
            { type: "reply", reply: { id: "no", title: "No" } },
          ],
        },
      },
    });
  });

  it("interactive buttons with an image header", () => {
    expect(
      body({
        kind: "interactive",
        interactive: { type: "button", header: { type: "image", image: { id: "img1" } }, body: "Pick", buttons: [{ id: "a", title: "A" }] },
      }).interactive,
    ).toEqual({
      type: "button",
      header: { type: "image", image: { id: "img1" } },
      body: { text: "Pick" },
      action: { buttons: [{ type: "reply", reply: { id: "a", title: "A" } }] },
    });
  });

  it("interactive list", () => {
    expect(
      body({
        kind: "interactive",
        interactive: {
          type: "list",
          body: "Choose a slot",
          button: "Slots",
          sections: [
            { title: "Morning", rows: [{ id: "m9", title: "9:00", description: "Early" }] },
            { title: "Afternoon", rows: [{ id: "a3", title: "15:00" }] },
          ],
        },
      }).interactive,
    ).toEqual({
      type: "list",
      body: { text: "Choose a slot" },
      action: {
        button: "Slots",
        sections: [
          { title: "Morning", rows: [{ id: "m9", title: "9:00", description: "Early" }] },
          { title: "Afternoon", rows: [{ id: "a3", title: "15:00" }] },
        ],
      },
    });
  });

  it("interactive cta_url", () => {
    expect(
      body({
        kind: "interactive",
        interactive: { type: "cta_url", body: "Track your order", footer: "Thanks", display_text: "Track", url: "https://shop.example/t/1" },
      }).interactive,
    ).toEqual({
      type: "cta_url",
      body: { text: "Track your order" },
      footer: { text: "Thanks" },
      action: { name: "cta_url", parameters: { display_text: "Track", url: "https://shop.example/t/1" } },
    });
  });

  it("interactive location_request_message", () => {
    expect(body({ kind: "interactive", interactive: { type: "location_request_message", body: "Where are you?" } }).interactive).toEqual({
      type: "location_request_message",
      body: { text: "Where are you?" },
      action: { name: "send_location" },
    });
  });

  it("interactive request_contact_info", () => {
    expect(body({ kind: "interactive", interactive: { type: "request_contact_info", body: "Share your number?" } }).interactive).toEqual({
      type: "request_contact_info",
      body: { text: "Share your number?" },
      action: { name: "request_contact_info" },
    });
  });

  it("reaction (never with context)", () => {
    expect(body({ kind: "reaction", reaction: { message_id: "wamid.X", emoji: "👍" } }, "wamid.Y")).toEqual({
      ...BASE,
      type: "reaction",
      reaction: { message_id: "wamid.X", emoji: "👍" },
    });
    expect(body({ kind: "reaction", reaction: { message_id: "wamid.X", emoji: "" } }).reaction).toEqual({ message_id: "wamid.X", emoji: "" });
  });

  it("template with components", () => {
    const components = [{ type: "body", parameters: [{ type: "text", text: "Ada" }] }];
    expect(body({ kind: "template", template: { name: "order_update", language: "en_US", components } })).toEqual({
      ...BASE,
      type: "template",
      template: { name: "order_update", language: { code: "en_US" }, components },
    });
  });

  it("template without components omits them", () => {
    expect(body({ kind: "template", template: { name: "hello_world", language: "en_US" } }).template).toEqual({
      name: "hello_world",
      language: { code: "en_US" },
    });
  });

  it("template without a name is refused before the provider", () => {
    expect(() => toPlatformABody(TO, { content: { kind: "template", template: { id: "tmpl_1" } } })).toThrow(ProviderError);
    try {
      toPlatformABody(TO, { content: { kind: "template", template: { id: "tmpl_1" } } });
    } catch (error) {
      expect((error as ProviderError).retryable).toBe(false);
      expect((error as ProviderError).failure.provider).toBe("service");
    }
  });
});
