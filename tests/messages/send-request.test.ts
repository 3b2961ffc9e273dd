import { describe, expect, it } from "vitest";
import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { CONTENT_FIELDS, MessageSendRequest, MessageSendResponse, toOutboundMessage } from "@/lib/api/schemas/messages";

/** A valid request without content: add exactly one content field. */
const BASE = { channel_id: "ch_1", to: "+14155550123" } as const;
const BUTTONS = [{ id: "yes", title: "Yes" }];
const ROW = { id: "r1", title: "Row" };

/** The `issues` object route.ts builds from a zod failure (dotted path → messages; whole body → "body"). */
function issuesOf(body: unknown): Record<string, string[]> {
  const result = MessageSendRequest.safeParse(body);
  if (result.success) return {};
  const issues: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const extras = issue.code === "unrecognized_keys" ? issue.keys : [null];
    for (const extra of extras) {
      const segments = [...issue.path, ...(extra === null ? [] : [extra])].map(String);
      (issues[segments.length ? segments.join(".") : "body"] ??= []).push(issue.message);
    }
  }
  return issues;
}

/** The exact set of issue keys (sorted), [] when the body is valid. */
function keysOf(body: unknown): string[] {
  return Object.keys(issuesOf(body)).sort();
}

function parsed(body: unknown) {
  const result = MessageSendRequest.safeParse(body);
  if (!result.success) throw new Error(`expected a valid request, got ${JSON.stringify(issuesOf(body))}`);
  return result.data;
}

const s = (n: number, char = "a") => char.repeat(n);
const withContent = (content: Record<string, unknown>) => ({ ...BASE, ...content });
const interactive = (value: Record<string, unknown>) => withContent({ interactive: value });
const button = (extra: Record<string, unknown> = {}) => interactive({ type: "button", body: "Pick one", buttons: BUTTONS, ...extra });
const list = (extra: Record<string, unknown> = {}) => interactive({ type: "list", body: "Pick one", button: "Options", sections: [{ rows: [ROW] }], ...extra });
const card = (extra: Record<string, unknown> = {}) => ({ name: { formatted_name: "Ada Lovelace", first_name: "Ada" }, ...extra });
const contacts = (...cards: unknown[]) => withContent({ contacts: cards });
const media = (value: Record<string, unknown>) => withContent({ media: value });
const sections = (sizes: number[], titled = true) =>
  sizes.map((size, s) => ({ ...(titled ? { title: `S${s}` } : {}), rows: Array.from({ length: size }, (_, r) => ({ id: `r${s}-${r}`, title: `Row ${r}` })) }));

describe("length and range boundaries: at the limit passes, one over fails at the right path", () => {
  // [name, body with a value of size n, limit, issue key]
  const cases: [string, (n: number) => unknown, number, string][] = [
    ["channel_id", (n) => ({ ...BASE, channel_id: s(n), text: "hi" }), 200, "channel_id"],
    ["conversation_id", (n) => ({ channel_id: "ch_1", conversation_id: s(n), text: "hi" }), 200, "conversation_id"],
    ["idempotency_key", (n) => withContent({ idempotency_key: s(n), text: "hi" }), 200, "idempotency_key"],
    ["reply_to", (n) => withContent({ reply_to: s(n), text: "hi" }), 200, "reply_to"],
    ["text", (n) => withContent({ text: s(n) }), 4096, "text"],
    ["template.id", (n) => withContent({ template: { id: s(n) } }), 200, "template.id"],
    ["template.name", (n) => withContent({ template: { name: s(n), language: "en" } }), 512, "template.name"],
    ["template.language", (n) => withContent({ template: { name: "welcome", language: s(n) } }), 10, "template.language"],
    ["media.id", (n) => media({ type: "image", id: s(n) }), 200, "media.id"],
    ["media.link", (n) => media({ type: "image", link: `https://example.com/${s(n - 20)}` }), 2048, "media.link"],
    ["media.caption", (n) => media({ type: "image", link: "https://example.com/a.jpg", caption: s(n) }), 1024, "media.caption"],
    ["media.filename", (n) => media({ type: "document", link: "https://example.com/a.pdf", filename: s(n) }), 240, "media.filename"],
    ["interactive.body (string)", (n) => button({ body: s(n) }), 1024, "interactive.body"],
    ["interactive.body ({text})", (n) => button({ body: { text: s(n) } }), 1024, "interactive.body.text"],
    ["interactive.footer (string)", (n) => button({ footer: s(n) }), 60, "interactive.footer"],
    ["interactive.footer ({text})", (n) => button({ footer: { text: s(n) } }), 60, "interactive.footer.text"],
    ["interactive.header (string)", (n) => button({ header: s(n) }), 60, "interactive.header"],
    ["interactive.header.text", (n) => button({ header: { type: "text", text: s(n) } }), 60, "interactive.header.text"],
    ["interactive.buttons.N.id", (n) => button({ buttons: [{ id: s(n), title: "Yes" }] }), 256, "interactive.buttons.0.id"],
    ["interactive.buttons.N.title", (n) => button({ buttons: [{ id: "y", title: s(n) }] }), 20, "interactive.buttons.0.title"],
    [
      "interactive.buttons (count)",
      (n) => button({ buttons: Array.from({ length: n }, (_, i) => ({ id: `b${i}`, title: `B${i}` })) }),
      3,
      "interactive.buttons.3",
    ],
    ["interactive.button (list label)", (n) => list({ button: s(n) }), 20, "interactive.button"],
    ["interactive.sections.N.title", (n) => list({ sections: [{ title: s(n), rows: [ROW] }] }), 24, "interactive.sections.0.title"],
    ["interactive.sections.N.rows.N.id", (n) => list({ sections: [{ rows: [{ id: s(n), title: "Row" }] }] }), 200, "interactive.sections.0.rows.0.id"],
    ["interactive.sections.N.rows.N.title", (n) => list({ sections: [{ rows: [{ id: "r", title: s(n) }] }] }), 24, "interactive.sections.0.rows.0.title"],
    [
      "interactive.sections.N.rows.N.description",
      (n) => list({ sections: [{ rows: [{ ...ROW, description: s(n) }] }] }),
      72,
      "interactive.sections.0.rows.0.description",
    ],
    ["interactive.sections (rows in all)", (n) => list({ sections: sections([6, n - 6]) }), 10, "interactive.sections.1.rows.4"],
    [
      "interactive.display_text",
      (n) => interactive({ type: "cta_url", body: "Go", display_text: s(n), url: "https://example.com" }),
      20,
      "interactive.display_text",
    ],
    [
      "interactive.action.parameters.display_text",
      (n) => interactive({ type: "cta_url", body: "Go", action: { name: "cta_url", parameters: { display_text: s(n), url: "https://example.com" } } }),
      20,
      "interactive.action.parameters.display_text",
    ],
    ["reaction.message_id", (n) => withContent({ reaction: { message_id: s(n), emoji: "👍" } }), 200, "reaction.message_id"],
    ["location.name", (n) => withContent({ location: { latitude: 0, longitude: 0, name: s(n) } }), 1000, "location.name"],
    ["location.address", (n) => withContent({ location: { latitude: 0, longitude: 0, address: s(n) } }), 1000, "location.address"],
    ["contacts (count)", (n) => contacts(...Array.from({ length: n }, () => card())), 20, "contacts.20"],
    ["contacts.N.name.formatted_name", (n) => contacts({ name: { formatted_name: s(n), last_name: "L" } }), 1000, "contacts.0.name.formatted_name"],
    ["contacts.N.phones.N.phone", (n) => contacts(card({ phones: [{ phone: s(n, "1") }] })), 1000, "contacts.0.phones.0.phone"],
    ["sticker.id", (n) => withContent({ sticker: { id: s(n) } }), 200, "sticker.id"],
  ];

  it.each(cases)("%s", (_name, body, limit, key) => {
    expect(keysOf(body(limit))).toEqual([]);
    expect(keysOf(body(limit + 1))).toEqual([key]);
  });

  it("the sections count: 10 pass, the 11th section is flagged (and its row, the 11th in all)", () => {
    expect(keysOf(list({ sections: sections(Array(10).fill(1)) }))).toEqual([]);
    expect(keysOf(list({ sections: sections(Array(11).fill(1)) }))).toEqual(["interactive.sections.10", "interactive.sections.10.rows.0"]);
  });

  // Lower bounds: empty strings and empty arrays.
  it.each<[string, unknown, string]>([
    ["channel_id", { ...BASE, channel_id: "", text: "hi" }, "channel_id"],
    ["text", withContent({ text: "" }), "text"],
    ["idempotency_key", withContent({ idempotency_key: "", text: "hi" }), "idempotency_key"],
    ["reply_to", withContent({ reply_to: "", text: "hi" }), "reply_to"],
    ["template.language (1 char)", withContent({ template: { name: "welcome", language: "e" } }), "template.language"],
    ["media.caption", media({ type: "image", link: "https://example.com/a.jpg", caption: "" }), "media.caption"],
    ["interactive.body", button({ body: "" }), "interactive.body"],
    ["interactive.buttons", button({ buttons: [] }), "interactive.buttons"],
    ["interactive.buttons.N.title", button({ buttons: [{ id: "y", title: "" }] }), "interactive.buttons.0.title"],
    ["interactive.sections", list({ sections: [] }), "interactive.sections"],
    ["interactive.sections.N.rows", list({ sections: [{ rows: [] }] }), "interactive.sections.0.rows"],
    ["reaction.message_id", withContent({ reaction: { message_id: "", emoji: "👍" } }), "reaction.message_id"],
    ["contacts", contacts(), "contacts"],
    ["location.name", withContent({ location: { latitude: 0, longitude: 0, name: "" } }), "location.name"],
  ])("%s may not be empty", (_name, body, key) => {
    expect(keysOf(body)).toEqual([key]);
  });

  it.each<[string, number, boolean]>([
    ["latitude", -90, true],
    ["latitude", 90, true],
    ["latitude", -90.000001, false],
    ["latitude", 90.000001, false],
    ["longitude", -180, true],
    ["longitude", 180, true],
    ["longitude", -180.000001, false],
    ["longitude", 180.000001, false],
  ])("location.%s = %d → valid: %s", (field, value, valid) => {
    const body = withContent({ location: { latitude: 0, longitude: 0, [field]: value } });
    expect(keysOf(body)).toEqual(valid ? [] : [`location.${field}`]);
  });

  it("location coordinates are required numbers", () => {
    expect(keysOf(withContent({ location: { latitude: "1", longitude: 2 } }))).toEqual(["location.latitude"]);
    expect(keysOf(withContent({ location: { latitude: 1 } }))).toEqual(["location.longitude"]);
  });
});

describe("Rule 1: exactly one content field", () => {
  const samples: Record<(typeof CONTENT_FIELDS)[number], unknown> = {
    text: "hi",
    template: { name: "welcome", language: "en_US" },
    media: { type: "image", link: "https://example.com/a.jpg" },
    interactive: { type: "button", body: "Pick", buttons: BUTTONS },
    reaction: { message_id: "wamid.1", emoji: "👍" },
    location: { latitude: 1, longitude: 2 },
    contacts: [card()],
    sticker: { id: "st_1" },
  };

  it("no content field: one issue on body naming the eight fields", () => {
    const issues = issuesOf({ ...BASE });
    expect(Object.keys(issues)).toEqual(["body"]);
    expect(issues.body![0]).toContain(CONTENT_FIELDS.join(", "));
  });

  it.each(CONTENT_FIELDS)("%s alone is accepted", (field) => {
    expect(keysOf(withContent({ [field]: samples[field] }))).toEqual([]);
  });

  it("two content fields: an issue on each", () => {
    expect(keysOf(withContent({ text: "hi", media: samples.media }))).toEqual(["media", "text"]);
  });

  it("all eight: an issue on each", () => {
    expect(keysOf(withContent(samples))).toEqual([...CONTENT_FIELDS].sort());
  });
});

describe("recipient: exactly one of conversation_id or to", () => {
  it("conversation_id alone and to alone are accepted", () => {
    expect(keysOf({ channel_id: "ch_1", conversation_id: "conv_1", text: "hi" })).toEqual([]);
    expect(keysOf({ channel_id: "ch_1", to: "+14155550123", text: "hi" })).toEqual([]);
  });

  it("neither or both: issues on both keys", () => {
    expect(keysOf({ channel_id: "ch_1", text: "hi" })).toEqual(["conversation_id", "to"]);
    expect(keysOf({ channel_id: "ch_1", conversation_id: "conv_1", to: "+14155550123", text: "hi" })).toEqual(["conversation_id", "to"]);
  });

  it("channel_id is required", () => {
    expect(keysOf({ to: "+14155550123", text: "hi" })).toEqual(["channel_id"]);
  });

  it.each([
    ["+14155550123", true],
    ["+12345678", true], // 8 digits
    ["+123456789012345", true], // 15 digits
    ["+1234567", false], // 7 digits
    ["+1234567890123456", false], // 16 digits
    ["14155550123", false], // no +
    ["+04155550123", false], // country codes never start with 0
    ["+1 415 555 0123", false],
    ["+1-415-555-0123", false],
    ["+1415555012a", false],
    ["", false],
  ])("to = %j → valid: %s", (to, valid) => {
    expect(keysOf({ channel_id: "ch_1", to, text: "hi" })).toEqual(valid ? [] : ["to"]);
  });
});

describe("strict objects: unknown fields are refused where they appear", () => {
  it.each<[string, unknown, string]>([
    ["top level", withContent({ text: "hi", priority: "high" }), "priority"],
    ["read-only id", withContent({ text: "hi", id: "msg_1" }), "id"],
    ["media", media({ type: "image", link: "https://example.com/a.jpg", mime_type: "image/png" }), "media.mime_type"],
    ["interactive action envelope on a button", button({ action: { buttons: BUTTONS } }), "interactive.action"],
    ["interactive button entry", button({ buttons: [{ id: "y", title: "Y", type: "reply" }] }), "interactive.buttons.0.type"],
    [
      "location request with an action",
      interactive({ type: "location_request_message", body: "Where?", action: { name: "send_location" } }),
      "interactive.action",
    ],
    ["request_contact_info with a footer", interactive({ type: "request_contact_info", body: "Share?", footer: "x" }), "interactive.footer"],
    ["reaction", withContent({ reaction: { message_id: "m", emoji: "👍", to: "x" } }), "reaction.to"],
    ["location", withContent({ location: { latitude: 1, longitude: 1, zoom: 3 } }), "location.zoom"],
    ["contact name", contacts({ name: { formatted_name: "A", first_name: "A", nickname: "x" } }), "contacts.0.name.nickname"],
    ["contact card", contacts(card({ photo: "x" })), "contacts.0.photo"],
    ["sticker", withContent({ sticker: { id: "s", animated: true } }), "sticker.animated"],
    ["template", withContent({ template: { id: "tmpl_1", namespace: "x" } }), "template.namespace"],
    [
      "cta_url action parameters",
      interactive({ type: "cta_url", body: "Go", action: { name: "cta_url", parameters: { display_text: "Go", url: "https://x.com", x: 1 } } }),
      "interactive.action.parameters.x",
    ],
  ])("%s", (_name, body, key) => {
    expect(keysOf(body)).toEqual([key]);
  });
});

describe("template", () => {
  const template = (value: unknown) => withContent({ template: value });
  const flowButton = (extra: Record<string, unknown> = {}) => ({
    type: "button",
    sub_type: "flow",
    index: 0,
    parameters: [{ type: "action", action: { flow_token: "tok_1", flow_action_data: { screen: "WELCOME" } } }],
    ...extra,
  });

  it.each<[string, unknown, string[]]>([
    ["{id}", { id: "tmpl_1" }, []],
    ["{name, language}", { name: "order_update_2", language: "en_US" }, []],
    ["{name} without language", { name: "welcome" }, ["template.language"]],
    ["{} (neither id nor name)", {}, ["template.id", "template.name"]],
    ["{language} alone", { language: "en" }, ["template.id", "template.name"]],
    ["{id, name}", { id: "tmpl_1", name: "welcome" }, ["template.name"]],
    ["{id, language}", { id: "tmpl_1", language: "en" }, ["template.language"]],
    ["name with capitals", { name: "Welcome", language: "en" }, ["template.name"]],
    ["name with a dash", { name: "wel-come", language: "en" }, ["template.name"]],
    ["components of objects", { id: "t", components: [{ type: "body", parameters: [{ type: "text", text: "Ada" }] }] }, []],
    ["empty components", { id: "t", components: [] }, []],
    ["a component that is not an object", { id: "t", components: ["body"] }, ["template.components.0"]],
    ["a component without type", { id: "t", components: [{ parameters: [] }] }, ["template.components.0.type"]],
    ["components not an array", { id: "t", components: { type: "body" } }, ["template.components"]],
  ])("%s", (_name, value, keys) => {
    expect(keysOf(template(value))).toEqual(keys);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ["a valid flow button", flowButton(), []],
    ["index as a digit string", flowButton({ index: "3" }), []],
    ["index 9", flowButton({ index: 9 }), []],
    ["index 10", flowButton({ index: 10 }), ["template.components.1.index"]],
    ["index -1", flowButton({ index: -1 }), ["template.components.1.index"]],
    ["no index", { type: "button", sub_type: "flow", parameters: flowButton().parameters }, ["template.components.1.index"]],
    ["action without token or data", flowButton({ parameters: [{ type: "action", action: {} }] }), []],
    [
      "two parameters",
      flowButton({ parameters: [...(flowButton().parameters as unknown[]), ...(flowButton().parameters as unknown[])] }),
      ["template.components.1.parameters"],
    ],
    ["no parameters", flowButton({ parameters: [] }), ["template.components.1.parameters"]],
    [
      "a text parameter",
      flowButton({ parameters: [{ type: "text", text: "x" }] }),
      ["template.components.1.parameters.0.action", "template.components.1.parameters.0.text", "template.components.1.parameters.0.type"],
    ],
    [
      "flow_action_data not an object",
      flowButton({ parameters: [{ type: "action", action: { flow_action_data: "x" } }] }),
      ["template.components.1.parameters.0.action.flow_action_data"],
    ],
    [
      "empty flow_token",
      flowButton({ parameters: [{ type: "action", action: { flow_token: "" } }] }),
      ["template.components.1.parameters.0.action.flow_token"],
    ],
    [
      "an unknown action key",
      flowButton({ parameters: [{ type: "action", action: { flow_token: "t", screen: "A" } }] }),
      ["template.components.1.parameters.0.action.screen"],
    ],
    ["sub_type flow on a non-button", flowButton({ type: "body" }), ["template.components.1.type"]],
  ])("flow button component: %s", (_name, component, keys) => {
    expect(keysOf(template({ name: "book_flow", language: "en", components: [{ type: "body" }, component] }))).toEqual(keys);
  });
});

describe("media", () => {
  it.each(["image", "document", "video", "audio"])("type %s by link and by id", (type) => {
    expect(keysOf(media({ type, link: "https://example.com/f" }))).toEqual([]);
    expect(keysOf(media({ type, id: "1234567890" }))).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ["neither link nor id", { type: "image" }, ["media.id", "media.link"]],
    ["both link and id", { type: "image", link: "https://example.com/a.jpg", id: "1" }, ["media.id", "media.link"]],
    ["http link", { type: "image", link: "http://example.com/a.jpg" }, ["media.link"]],
    ["relative link", { type: "image", link: "/a.jpg" }, ["media.link"]],
    ["https: without //", { type: "image", link: "https:example.com/a.jpg" }, ["media.link"]],
    ["link with a space", { type: "image", link: "https://example.com/a b.jpg" }, ["media.link"]],
    ["unknown type", { type: "sticker", id: "1" }, ["media.type"]],
    ["caption on audio", { type: "audio", link: "https://example.com/a.ogg", caption: "x" }, ["media.caption"]],
    ["filename on an image", { type: "image", link: "https://example.com/a.jpg", filename: "a.jpg" }, ["media.filename"]],
    ["caption and filename on a document", { type: "document", id: "1", caption: "Invoice", filename: "invoice.pdf" }, []],
  ])("%s", (_name, value, keys) => {
    expect(keysOf(media(value))).toEqual(keys);
  });
});

describe("sticker", () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    ["id", { id: "st_1" }, []],
    ["https link", { link: "https://example.com/s.webp" }, []],
    ["neither", {}, ["sticker.id", "sticker.link"]],
    ["both", { id: "st_1", link: "https://example.com/s.webp" }, ["sticker.id", "sticker.link"]],
    ["http link", { link: "http://example.com/s.webp" }, ["sticker.link"]],
  ])("%s", (_name, value, keys) => {
    expect(keysOf(withContent({ sticker: value }))).toEqual(keys);
  });
});

describe("reaction", () => {
  it.each(["👍", "", "❤️", "👍🏽", "👨‍👩‍👧", "🇺🇸", "1️⃣"])("emoji %j is accepted ('' removes the reaction)", (emoji) => {
    expect(keysOf(withContent({ reaction: { message_id: "wamid.1", emoji } }))).toEqual([]);
  });

  it.each(["a", "👍👍", ":)", " 👍", "ok"])("emoji %j is refused", (emoji) => {
    expect(keysOf(withContent({ reaction: { message_id: "wamid.1", emoji } }))).toEqual(["reaction.emoji"]);
  });

  it("message_id and emoji are both required", () => {
    expect(keysOf(withContent({ reaction: { emoji: "👍" } }))).toEqual(["reaction.message_id"]);
    expect(keysOf(withContent({ reaction: { message_id: "wamid.1" } }))).toEqual(["reaction.emoji"]);
  });
});

describe("contacts", () => {
  it("formatted_name alone is refused, on contacts.N.name", () => {
    expect(keysOf(contacts({ name: { formatted_name: "Ada" } }))).toEqual(["contacts.0.name"]);
    expect(keysOf(contacts(card(), { name: { formatted_name: "Ada" } }))).toEqual(["contacts.1.name"]);
  });

  it.each(["first_name", "last_name", "middle_name", "suffix", "prefix"])("formatted_name plus %s is accepted", (part) => {
    expect(keysOf(contacts({ name: { formatted_name: "Ada", [part]: "X" } }))).toEqual([]);
  });

  it("formatted_name is required", () => {
    expect(keysOf(contacts({ name: { last_name: "Lovelace" } }))).toEqual(["contacts.0.name.formatted_name"]);
  });

  it("20 cards pass, 21 are refused on the 21st", () => {
    expect(keysOf(contacts(...Array.from({ length: 20 }, () => card())))).toEqual([]);
    expect(keysOf(contacts(...Array.from({ length: 21 }, () => card())))).toEqual(["contacts.20"]);
  });

  it.each([
    ["1815-12-10", true],
    ["2024-02-29", true],
    ["2023-02-29", false],
    ["1990-13-01", false],
    ["1990-04-31", false],
    ["1990-1-1", false],
    ["19900101", false],
    ["1990-01-01T00:00:00Z", false],
  ])("birthday %s → valid: %s", (birthday, valid) => {
    expect(keysOf(contacts(card({ birthday })))).toEqual(valid ? [] : ["contacts.0.birthday"]);
  });

  it("a full card in the provider shape is accepted", () => {
    const full = {
      name: { formatted_name: "Dr. Ada King", first_name: "Ada", last_name: "King", middle_name: "Augusta", suffix: "PhD", prefix: "Dr." },
      birthday: "1815-12-10",
      phones: [{ phone: "+44 20 7946 0000", type: "WORK", wa_id: "442079460000" }, { wa_id: "442079460001" }],
      emails: [{ email: "ada@example.com", type: "WORK" }],
      urls: [{ url: "https://example.com", type: "WORK" }],
      addresses: [{ street: "1 Main St", city: "London", state: "LDN", zip: "N1", country: "United Kingdom", country_code: "GB", type: "HOME" }],
      org: { company: "Analytical Engines", department: "R&D", title: "Analyst" },
    };
    expect(keysOf(contacts(full))).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["a phone with neither phone nor wa_id", { phones: [{ type: "CELL" }] }, "contacts.0.phones.0.phone"],
    ["an email entry without email", { emails: [{ type: "WORK" }] }, "contacts.0.emails.0.email"],
    ["a url entry without url", { urls: [{ type: "WORK" }] }, "contacts.0.urls.0.url"],
    ["an address with only a type", { addresses: [{ type: "HOME" }] }, "contacts.0.addresses.0"],
    ["an empty org", { org: {} }, "contacts.0.org"],
  ])("%s is refused", (_name, extra, key) => {
    expect(keysOf(contacts(card(extra)))).toEqual([key]);
  });

  it("contacts must be an array", () => {
    expect(keysOf(withContent({ contacts: card() }))).toEqual(["contacts"]);
  });
});

describe("interactive", () => {
  it("an unknown or missing type is reported on interactive.type", () => {
    expect(keysOf(interactive({ type: "carousel", body: "x" }))).toEqual(["interactive.type"]);
    expect(keysOf(interactive({ body: "x" }))).toEqual(["interactive.type"]);
  });

  it("body as a string or as {text} parses to the same string", () => {
    const a = parsed(button({ body: "Pick one" }));
    const b = parsed(button({ body: { text: "Pick one" } }));
    expect(a).toEqual(b);
    expect(a.interactive).toMatchObject({ body: "Pick one" });
  });

  it("footer as a string or {text}, header as a string or {type: text, text}: same result", () => {
    const a = parsed(button({ header: "Hello", footer: "Reply below" }));
    const b = parsed(button({ header: { type: "text", text: "Hello" }, footer: { text: "Reply below" } }));
    expect(a).toEqual(b);
    expect(a.interactive).toMatchObject({ header: { type: "text", text: "Hello" }, footer: "Reply below" });
  });

  it.each<[string, unknown, string[]]>([
    ["body {text} with extra keys", { text: "x", markdown: true }, ["interactive.body.markdown"]],
    ["body {text} without text", { txt: "x" }, ["interactive.body"]],
    ["body a number", 5, ["interactive.body"]],
  ])("%s", (_name, body, keys) => {
    expect(keysOf(button({ body }))).toEqual(keys);
  });

  it.each<[string, unknown, string[]]>([
    ["image by link", { type: "image", image: { link: "https://example.com/a.jpg" } }, []],
    ["video by id", { type: "video", video: { id: "123" } }, []],
    ["document with filename", { type: "document", document: { link: "https://example.com/a.pdf", filename: "a.pdf" } }, []],
    ["image without locator", { type: "image", image: {} }, ["interactive.header.image.id", "interactive.header.image.link"]],
    [
      "image with both locators",
      { type: "image", image: { id: "1", link: "https://example.com/a.jpg" } },
      ["interactive.header.image.id", "interactive.header.image.link"],
    ],
    ["image object missing", { type: "image" }, ["interactive.header"]],
    ["unknown header type", { type: "gif", gif: {} }, ["interactive.header"]],
    ["filename on an image header", { type: "image", image: { id: "1", filename: "a.jpg" } }, ["interactive.header.image.filename"]],
  ])("button header: %s", (_name, header, keys) => {
    expect(keysOf(button({ header }))).toEqual(keys);
  });

  it("a missing-field header error names the missing part", () => {
    expect(issuesOf(button({ header: { type: "image" } }))["interactive.header"]![0]).toContain("image:");
  });

  it("reply buttons: ids and titles unique, the repeat is flagged", () => {
    const dup = [
      { id: "a", title: "Yes" },
      { id: "a", title: "No" },
      { id: "c", title: "Yes" },
    ];
    expect(keysOf(button({ buttons: dup }))).toEqual(["interactive.buttons.1.id", "interactive.buttons.2.title"]);
  });

  it("a list: text header only, section titles required with more than one section, row ids unique across sections", () => {
    expect(keysOf(list({ header: "Menu", footer: { text: "Tap to choose" } }))).toEqual([]);
    expect(keysOf(list({ header: { type: "image", image: { link: "https://example.com/a.jpg" } } }))).toEqual(["interactive.header"]);
    expect(keysOf(list({ sections: [{ rows: [ROW] }, { title: "Two", rows: [{ id: "r2", title: "Row" }] }] }))).toEqual(["interactive.sections.0.title"]);
    expect(keysOf(list({ sections: sections([2, 2], false) }))).toEqual(["interactive.sections.0.title", "interactive.sections.1.title"]);
    expect(
      keysOf(
        list({
          sections: [
            { title: "A", rows: [ROW] },
            { title: "B", rows: [ROW] },
          ],
        }),
      ),
    ).toEqual(["interactive.sections.1.rows.0.id"]);
    expect(keysOf(list({ sections: [{ rows: [ROW, ROW] }] }))).toEqual(["interactive.sections.0.rows.1.id"]);
  });

  it("a list without its button label or sections", () => {
    expect(keysOf(interactive({ type: "list", body: "x", sections: [{ rows: [ROW] }] }))).toEqual(["interactive.button"]);
    expect(keysOf(interactive({ type: "list", body: "x", button: "Open" }))).toEqual(["interactive.sections"]);
  });

  describe("cta_url", () => {
    const flat = { type: "cta_url", body: "See the offer", display_text: "Open", url: "https://example.com/offer" };
    const envelope = {
      type: "cta_url",
      body: { text: "See the offer" },
      action: { name: "cta_url", parameters: { display_text: "Open", url: "https://example.com/offer" } },
    };

    it("both shapes normalize to the same OutboundContent", () => {
      const expected = {
        content: { kind: "interactive", interactive: { type: "cta_url", body: "See the offer", display_text: "Open", url: "https://example.com/offer" } },
      };
      expect(toOutboundMessage(parsed(interactive(flat)))).toEqual(expected);
      expect(toOutboundMessage(parsed(interactive(envelope)))).toEqual(expected);
    });

    it.each<[string, Record<string, unknown>, string[]]>([
      ["http url", { ...flat, url: "http://example.com" }, []],
      ["ftp url", { ...flat, url: "ftp://example.com" }, ["interactive.url"]],
      ["relative url", { ...flat, url: "/offer" }, ["interactive.url"]],
      ["missing display_text and url", { type: "cta_url", body: "x" }, ["interactive.display_text", "interactive.url"]],
      ["missing url", { type: "cta_url", body: "x", display_text: "Open" }, ["interactive.url"]],
      ["both shapes at once", { ...envelope, display_text: "Open", url: "https://example.com" }, ["interactive.display_text", "interactive.url"]],
      [
        "envelope with another action name",
        { ...envelope, action: { name: "send_location", parameters: envelope.action.parameters } },
        ["interactive.action.name"],
      ],
      ["envelope without url", { ...envelope, action: { name: "cta_url", parameters: { display_text: "Open" } } }, ["interactive.action.parameters.url"]],
      [
        "envelope with a bad url",
        { ...envelope, action: { name: "cta_url", parameters: { display_text: "Open", url: "example.com" } } },
        ["interactive.action.parameters.url"],
      ],
      ["with an image header", { ...flat, header: { type: "image", image: { link: "https://example.com/a.jpg" } }, footer: "x" }, []],
    ])("%s", (_name, value, keys) => {
      expect(keysOf(interactive(value))).toEqual(keys);
    });
  });

  it.each(["location_request_message", "request_contact_info"])("%s takes a body only", (type) => {
    expect(keysOf(interactive({ type, body: "Please share" }))).toEqual([]);
    expect(keysOf(interactive({ type, body: { text: "Please share" } }))).toEqual([]);
    expect(keysOf(interactive({ type }))).toEqual(["interactive.body"]);
    expect(keysOf(interactive({ type, body: "x", header: "h" }))).toEqual(["interactive.header"]);
  });
});

describe("toOutboundMessage: the parsed request as OutboundMessage", () => {
  const cases: [string, Record<string, unknown>, unknown][] = [
    ["text", { text: "Hello" }, { content: { kind: "text", text: "Hello" } }],
    [
      "template by name with a flow button",
      {
        template: {
          name: "book",
          language: "en_US",
          components: [
            { type: "button", sub_type: "flow", index: "0", parameters: [{ type: "action", action: { flow_token: "t1", flow_action_data: { a: 1 } } }] },
          ],
        },
      },
      {
        content: {
          kind: "template",
          template: {
            name: "book",
            language: "en_US",
            components: [
              { type: "button", sub_type: "flow", index: "0", parameters: [{ type: "action", action: { flow_token: "t1", flow_action_data: { a: 1 } } }] },
            ],
          },
        },
      },
    ],
    ["template by id", { template: { id: "tmpl_1" } }, { content: { kind: "template", template: { id: "tmpl_1" } } }],
    [
      "media",
      { media: { type: "document", id: "9", caption: "Invoice", filename: "inv.pdf" } },
      { content: { kind: "media", media: { type: "document", id: "9", caption: "Invoice", filename: "inv.pdf" } } },
    ],
    [
      "interactive button",
      { interactive: { type: "button", body: { text: "Pick" }, header: "Hi", footer: { text: "f" }, buttons: [{ id: "a", title: "A" }] } },
      {
        content: {
          kind: "interactive",
          interactive: { type: "button", body: "Pick", header: { type: "text", text: "Hi" }, footer: "f", buttons: [{ id: "a", title: "A" }] },
        },
      },
    ],
    [
      "interactive list",
      { interactive: { type: "list", body: "Pick", button: "Open", sections: [{ title: "S", rows: [{ id: "r", title: "R", description: "D" }] }] } },
      {
        content: {
          kind: "interactive",
          interactive: { type: "list", body: "Pick", button: "Open", sections: [{ title: "S", rows: [{ id: "r", title: "R", description: "D" }] }] },
        },
      },
    ],
    [
      "interactive location request",
      { interactive: { type: "location_request_message", body: { text: "Where are you?" } } },
      { content: { kind: "interactive", interactive: { type: "location_request_message", body: "Where are you?" } } },
    ],
    [
      "interactive contact info request",
      { interactive: { type: "request_contact_info", body: "Share your number?" } },
      { content: { kind: "interactive", interactive: { type: "request_contact_info", body: "Share your number?" } } },
    ],
    [
      "reaction (removal)",
      { reaction: { message_id: "wamid.1", emoji: "" } },
      { content: { kind: "reaction", reaction: { message_id: "wamid.1", emoji: "" } } },
    ],
    [
      "location",
      { location: { latitude: -33.8688, longitude: 151.2093, name: "Opera House", address: "Bennelong Point" } },
      { content: { kind: "location", location: { latitude: -33.8688, longitude: 151.2093, name: "Opera House", address: "Bennelong Point" } } },
    ],
    [
      "contacts",
      { contacts: [{ name: { formatted_name: "Ada", last_name: "Lovelace" }, phones: [{ phone: "+1 555", wa_id: "1555" }] }] },
      { content: { kind: "contacts", contacts: [{ name: { formatted_name: "Ada", last_name: "Lovelace" }, phones: [{ phone: "+1 555", wa_id: "1555" }] }] } },
    ],
    ["sticker", { sticker: { link: "https://example.com/s.webp" } }, { content: { kind: "sticker", sticker: { link: "https://example.com/s.webp" } } }],
  ];

  it.each(cases)("%s", (_name, content, expected) => {
    expect(toOutboundMessage(parsed(withContent(content)))).toEqual(expected);
  });

  it.each(cases)("%s with reply_to carries replyTo", (_name, content, expected) => {
    expect(toOutboundMessage(parsed(withContent({ ...content, reply_to: "wamid.quoted" })))).toEqual({ ...(expected as object), replyTo: "wamid.quoted" });
  });

  it("without reply_to there is no replyTo key", () => {
    expect(Object.keys(toOutboundMessage(parsed(withContent({ text: "x" }))))).toEqual(["content"]);
  });
});

describe("MessageSendResponse", () => {
  const content = { interactive: null, location: null, contacts: null, template: null, reaction: null, sticker: null };
  const response = { object: "message", id: "msg_1", status: "queued", conversation_id: "conv_1", contact_id: "ct_1", idempotency_key: "k", ...content };

  it("every field is required, the structured content fields too (null unless sent)", () => {
    expect(MessageSendResponse.safeParse(response).success).toBe(true);
    for (const key of Object.keys(response)) {
      const { [key as keyof typeof response]: _omitted, ...rest } = response;
      expect(MessageSendResponse.safeParse(rest).success, key).toBe(false);
    }
  });

  it("conversation_id is a string, status is queued", () => {
    expect(MessageSendResponse.safeParse({ ...response, conversation_id: null }).success).toBe(false);
    expect(MessageSendResponse.safeParse({ ...response, status: "sent" }).success).toBe(false);
  });
});

describe("OpenAPI", () => {
  it("generates named components with the limits", () => {
    const registry = new OpenAPIRegistry();
    registry.register("MessageSendRequest", MessageSendRequest);
    registry.register("MessageSendResponse", MessageSendResponse);
    const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({ openapi: "3.1.0", info: { title: "t", version: "1" } });
    const schemas = doc.components?.schemas ?? {};
    for (const name of [
      "MessageSendRequest",
      "MessageSendResponse",
      "OutboundTemplate",
      "OutboundMedia",
      "OutboundInteractive",
      "InteractiveHeader",
      "OutboundReaction",
      "OutboundLocation",
      "OutboundContactCard",
      "OutboundSticker",
    ]) {
      expect(schemas, name).toHaveProperty(name);
    }
    const request = schemas.MessageSendRequest as { additionalProperties?: boolean; required?: string[]; properties?: Record<string, { maxLength?: number }> };
    expect(request.additionalProperties).toBe(false);
    expect(request.required).toEqual(["channel_id"]);
    expect(request.properties?.text?.maxLength).toBe(4096);
  });
});
