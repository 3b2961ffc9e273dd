// One PLATFORM_A message object → a normalized message, per type; null for what cannot be read.
import type { ContactCard } from "@/lib/ports/provider/outbound";
import type { InboundInteractive, InboundMedia, NormalizedInboundMessage } from "./types";
import { type Obj, num, obj, objs, parseObject, pick, str, strOrNum, unixToIso } from "./platform-a-json";

const MEDIA_TYPES = ["image", "audio", "video", "document", "sticker"] as const;

type MediaType = (typeof MEDIA_TYPES)[number];

/** One `messages[]` (or `message_echoes[]`) item; null when malformed or not a customer message. */
export function parseMessage(m: Obj): NormalizedInboundMessage | null {
  const id = str(m.id);
  const received_at = unixToIso(m.timestamp);
  const type = str(m.type);
  if (!id || !received_at || !type || type === "request_welcome") return null;
  const context = obj(m.context);
  const contextId = str(context?.id);
  const msg: NormalizedInboundMessage = {
    id,
    type: "text",
    text: null,
    received_at,
    media: null,
    location: null,
    interactive: null,
    replied_to: contextId ? { message_id: contextId, from: str(context?.from) } : null,
  };
  const referral = obj(m.referral);
  if (referral) msg.referral = referral;
  const content = obj(m[type]);
  if (isMediaType(type)) {
    const media = mediaOf(type, content);
    if (!media) return null;
    return { ...msg, type, media };
  }
  return withContent(msg, type, content, m);
}

/** The message completed by its type's object (`content`, that is m[type]); null when the object is unusable. */
function withContent(msg: NormalizedInboundMessage, type: string, content: Obj | null, m: Obj): NormalizedInboundMessage | null {
  switch (type) {
    case "text": {
      const body = typeof content?.body === "string" ? content.body : null;
      return body === null ? null : { ...msg, text: body };
    }
    case "location": {
      const latitude = num(content?.latitude);
      const longitude = num(content?.longitude);
      if (latitude === null || longitude === null) return null;
      const name = str(content?.name);
      const location = { latitude, longitude, name, address: str(content?.address), url: str(content?.url) };
      return { ...msg, type, text: name, location };
    }
    case "contacts": {
      const contacts = objs(m.contacts)
        .map(contactCard)
        .filter((c): c is ContactCard => c !== null);
      return contacts.length ? { ...msg, type, contacts } : null;
    }
    case "interactive":
      return interactiveOf(msg, content);
    case "button": {
      if (!content) return null;
      const title = str(content.text);
      return { ...msg, type: "interactive", text: title, interactive: interactive("button", { title, payload: str(content.payload) }) };
    }
    case "reaction": {
      const messageId = str(content?.message_id);
      if (!messageId) return null;
      const emoji = typeof content?.emoji === "string" ? content.emoji : "";
      return { ...msg, type, text: emoji || null, reaction: { message_id: messageId, emoji } };
    }
    case "system": {
      if (!content) return null;
      const body = str(content.body);
      const system = {
        type: str(content.type) ?? "unknown",
        body,
        wa_id: str(content.wa_id) ?? strOrNum(content.new_wa_id),
        user_id: str(content.user_id),
      };
      return { ...msg, type, text: body, system };
    }
    case "revoke": {
      const original = str(content?.original_message_id);
      return original ? { ...msg, type, revoke: { original_message_id: original } } : null;
    }
    case "edit": {
      const original = str(content?.original_message_id);
      const inner = obj(content?.message);
      if (!original || !inner) return null;
      const innerType = str(inner.type) ?? "text";
      const innerContent = obj(inner[innerType]);
      const body = str(innerContent?.body) ?? str(innerContent?.caption) ?? "";
      const edit = { original_message_id: original, message: { type: innerType, text: { body } } };
      return { ...msg, type, text: body, edit };
    }
    default: {
      // "unsupported" proper, plus provider types svc does not model (order, legacy "unknown", ...).
      const subtype = type === "unsupported" ? (str(content?.type) ?? "unknown") : type;
      return { ...msg, type: "unsupported", unsupported: { type: subtype, raw_type: type, errors: messageErrors(m.errors) } };
    }
  }
}

function interactiveOf(msg: NormalizedInboundMessage, content: Obj | null): NormalizedInboundMessage | null {
  const sub = str(content?.type);
  if (!content || !sub) return null;
  const reply = obj(content[sub]);
  const base = { ...msg, type: "interactive" as const };
  if (sub === "button_reply" || sub === "list_reply") {
    const title = str(reply?.title);
    const fields = { id: str(reply?.id), title, description: str(reply?.description) };
    return { ...base, text: title, interactive: interactive(sub, fields) };
  }
  if (sub === "nfm_reply") {
    const response = parseObject(reply?.response_json);
    const flow_token = str(response?.flow_token);
    return { ...base, text: str(reply?.body), interactive: interactive(sub, { response, flow_token }) };
  }
  // call_permission_reply and future subtypes: the reply object is kept as the response.
  return { ...base, interactive: interactive(sub, { response: reply }) };
}

function interactive(type: string, fields: Partial<InboundInteractive>): InboundInteractive {
  return { type, id: null, title: null, description: null, payload: null, response: null, flow_token: null, ...fields };
}

function mediaOf(type: MediaType, content: Obj | null): InboundMedia | null {
  const id = str(content?.id);
  if (!content || !id) return null;
  const media: InboundMedia = {
    type,
    provider: "platform_a",
    provider_media_id: id,
    source_url: null,
    mime_type: str(content.mime_type),
    file_name: str(content.filename),
    sha256: str(content.sha256),
    caption: str(content.caption),
  };
  if (type === "audio") media.voice = content.voice === true;
  if (type === "sticker") media.animated = content.animated === true;
  return media;
}

const CARD_PARTS = {
  phones: ["phone", "type", "wa_id"],
  emails: ["email", "type"],
  urls: ["url", "type"],
  addresses: ["street", "city", "state", "zip", "country", "country_code", "type"],
} as const;

function contactCard(c: Obj): ContactCard | null {
  const name = obj(c.name);
  const parts = pick(name, ["first_name", "last_name", "middle_name", "suffix", "prefix"]);
  const formatted = str(name?.formatted_name) ?? ([parts.first_name, parts.last_name].filter(Boolean).join(" ") || null);
  if (!formatted) return null;
  const card: ContactCard = { name: { formatted_name: formatted, ...parts } };
  const birthday = str(c.birthday);
  if (birthday) card.birthday = birthday;
  for (const key of ["phones", "emails", "urls", "addresses"] as const) {
    const list = objs(c[key]).map((o) => pick(o, CARD_PARTS[key]));
    if (list.length) card[key] = list;
  }
  const org = obj(c.org);
  if (org) card.org = pick(org, ["company", "department", "title"]);
  return card;
}

function messageErrors(v: unknown): { code: number; title: string; message: string; error_data: unknown }[] {
  return objs(v).map((e) => {
    const title = str(e.title) ?? "";
    return { code: num(e.code) ?? 0, title, message: str(e.message) ?? title, error_data: e.error_data ?? null };
  });
}

function isMediaType(t: string): t is MediaType {
  return (MEDIA_TYPES as readonly string[]).includes(t);
}
