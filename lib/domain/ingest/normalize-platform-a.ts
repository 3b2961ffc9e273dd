import type { ContactCard } from "@/lib/ports/provider/outbound";
import type { InboundEvent, InboundInteractive, InboundMedia, InboundParty, NormalizedInboundMessage } from "./types";

/**
 * PLATFORM_A (Cloud API) webhook body → normalized inbound events. Pure and total: never throws;
 * malformed items are skipped, a foreign body yields []. Envelope:
 * `{object:"whatsapp_business_account", entry:[{id, changes:[{field, value:{metadata:{phone_number_id}, ...}}]}]}`.
 * - field "messages": `messages[]` → kind "message" (sender from the matching `contacts[]` entry),
 *   `statuses[]` → kind "status"; system number / user-id changes also yield a kind "identity_change".
 * - field "calls": `calls[]` → kind "call" (call_kind "call"), `statuses[]` → call_kind "status".
 * - field "smb_message_echoes": `message_echoes[]` → kind "echo" (sent from the business app).
 * - field "flows": a FLOW_STATUS_CHANGE → kind "flow_status" (entry.id is the business account; no metadata).
 * - field "message_template_status_update": a template review result → kind "template_status" (entry.id
 *   is the business account; `reason` "NONE" means none; a pause or disable explains itself in other_info).
 * - anything else (history, smb_app_state_sync, other template/account fields, ...) → nothing.
 */
export function normalizePlatformAWebhook(payload: unknown): InboundEvent[] {
  const body = obj(payload);
  if (!body || (body.object !== undefined && body.object !== "whatsapp_business_account")) return [];
  const events: InboundEvent[] = [];
  for (const entry of objs(body.entry)) {
    for (const change of objs(entry.changes)) {
      const value = obj(change.value);
      if (change.field === "flows") {
        flowsChange(value, str(entry.id), events);
        continue;
      }
      if (change.field === "message_template_status_update") {
        templateStatusChange(value, str(entry.id), events);
        continue;
      }
      const senderId = str(obj(value?.metadata)?.phone_number_id);
      if (!value || !senderId) continue;
      const field = str(change.field) ?? "messages";
      if (field === "messages") messagesChange(value, senderId, events);
      else if (field === "calls") callsChange(value, senderId, events);
      else if (field === "smb_message_echoes") echoesChange(value, senderId, events);
    }
  }
  return events;
}

const PLATFORM = "PLATFORM_A" as const;

function flowsChange(value: Obj | null, businessAccountId: string | null, out: InboundEvent[]): void {
  const flowId = str(value?.flow_id);
  const newStatus = str(value?.new_status);
  if (!value || value.event !== "FLOW_STATUS_CHANGE" || !flowId || !newStatus || !businessAccountId) return;
  out.push({
    platform: PLATFORM,
    senderId: businessAccountId,
    kind: "flow_status",
    flow_id: flowId,
    old_status: str(value.old_status),
    new_status: newStatus,
    message: str(value.message),
  });
}

function templateStatusChange(value: Obj | null, businessAccountId: string | null, out: InboundEvent[]): void {
  const templateId = strOrNum(value?.message_template_id);
  const event = str(value?.event);
  if (!value || !templateId || !event || !businessAccountId) return;
  const otherInfo = obj(value.other_info);
  const given = str(value.reason);
  const reason = given && given.toUpperCase() !== "NONE" ? given : (str(otherInfo?.description) ?? str(otherInfo?.title));
  out.push({ platform: PLATFORM, senderId: businessAccountId, kind: "template_status", template_id: templateId, event, reason });
}

const STATUSES = ["sent", "delivered", "read", "failed", "deleted"] as const;
const MEDIA_TYPES = ["image", "audio", "video", "document", "sticker"] as const;
const IDENTITY_CHANGES = new Set(["user_changed_number", "customer_changed_number", "user_changed_user_id"]);
type MediaType = (typeof MEDIA_TYPES)[number];
type Status = (typeof STATUSES)[number];

function messagesChange(value: Obj, senderId: string, out: InboundEvent[]): void {
  const contacts = objs(value.contacts);
  for (const m of objs(value.messages)) {
    guard(() => {
      const from = senderOf(m, contacts);
      const message = from && parseMessage(m);
      if (!from || !message) return;
      out.push({ platform: PLATFORM, senderId, kind: "message", from, message });
      const system = obj(m.system);
      if (system && message.system && IDENTITY_CHANGES.has(message.system.type)) {
        const current: InboundParty = {
          ...from,
          address: message.system.wa_id ?? from.address,
          user_id: message.system.user_id ?? from.user_id,
          parent_user_id: str(system.parent_user_id) ?? from.parent_user_id,
        };
        out.push({ platform: PLATFORM, senderId, kind: "identity_change", previous: from, current, timestamp: message.received_at });
      }
    });
  }
  for (const s of objs(value.statuses)) {
    guard(() => {
      if (s.type === "call") return callStatus(s, senderId, out);
      const id = str(s.id);
      const status = STATUSES.find((x): x is Status => x === s.status);
      const timestamp = unixToIso(s.timestamp);
      if (!id || !status || !timestamp) return;
      out.push({
        platform: PLATFORM,
        senderId,
        kind: "status",
        platform_message_id: id,
        status,
        timestamp,
        recipient_id: str(s.recipient_id),
        recipient_user_id: str(s.recipient_user_id),
        errors: objs(s.errors).map((e) => ({
          code: num(e.code) ?? 0,
          title: str(e.title) ?? "",
          message: str(e.message),
          error_data: e.error_data ?? null,
          href: str(e.href),
        })),
        raw: s,
      });
    });
  }
}

function callsChange(value: Obj, senderId: string, out: InboundEvent[]): void {
  for (const c of objs(value.calls)) {
    guard(() => {
      const call_id = str(c.id);
      const event = str(c.event);
      const timestamp = unixToIso(c.timestamp);
      if (call_id && event && timestamp) {
        out.push({ platform: PLATFORM, senderId, kind: "call", call_kind: "call", call_id, event, timestamp, call: c });
      }
    });
  }
  for (const s of objs(value.statuses)) guard(() => callStatus(s, senderId, out));
}

function callStatus(s: Obj, senderId: string, out: InboundEvent[]): void {
  const call_id = str(s.id);
  const event = str(s.status);
  const timestamp = unixToIso(s.timestamp);
  if (call_id && event && timestamp) {
    out.push({ platform: PLATFORM, senderId, kind: "call", call_kind: "status", call_id, event, timestamp, call: s });
  }
}

function echoesChange(value: Obj, senderId: string, out: InboundEvent[]): void {
  for (const e of objs(value.message_echoes)) {
    guard(() => {
      const to: InboundParty = {
        address: digits(str(e.to)),
        user_id: str(e.to_user_id),
        parent_user_id: str(e.to_parent_user_id),
        username: null,
        name: null,
      };
      const message = parseMessage(e);
      if (message && (to.address || to.user_id)) out.push({ platform: PLATFORM, senderId, kind: "echo", to, message });
    });
  }
}

/** The sender: `from` / `from_user_id` on the message, completed by the matching `contacts[]` entry. */
function senderOf(m: Obj, contacts: Obj[]): InboundParty | null {
  const from = str(m.from);
  const fromUser = str(m.from_user_id);
  const contact =
    contacts.find((c) => from !== null && str(c.wa_id) === from) ??
    contacts.find((c) => fromUser !== null && str(c.user_id) === fromUser) ??
    (contacts.length === 1 ? contacts[0] : undefined);
  const profile = obj(contact?.profile);
  const party: InboundParty = {
    address: str(contact?.wa_id) ?? from,
    user_id: str(contact?.user_id) ?? fromUser,
    parent_user_id: str(contact?.parent_user_id) ?? str(m.from_parent_user_id),
    username: str(profile?.username) ?? str(contact?.username),
    name: str(profile?.name),
  };
  return party.address || party.user_id ? party : null;
}

/** One `messages[]` (or `message_echoes[]`) item; null when malformed or not a customer message. */
function parseMessage(m: Obj): NormalizedInboundMessage | null {
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

// ---- small, defensive JSON readers -------------------------------------------------------------

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : null;
}
function objs(v: unknown): Obj[] {
  return Array.isArray(v) ? v.map(obj).filter((o): o is Obj => o !== null) : [];
}
function str(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}
function strOrNum(v: unknown): string | null {
  return typeof v === "number" && Number.isFinite(v) ? String(v) : str(v);
}
function num(v: unknown): number | null {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}
/** The listed keys of an object whose values are non-empty strings (contact-card parts). */
function pick(o: Obj | null, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) {
    const v = str(o?.[k]);
    if (v !== null) out[k] = v;
  }
  return out;
}
function digits(v: string | null): string | null {
  return v === null ? null : v.replace(/^\+/, "");
}
/** Provider unix seconds (string or number) → ISO 8601. */
function unixToIso(v: unknown): string | null {
  const seconds = num(v);
  const date = seconds === null || seconds <= 0 ? null : new Date(seconds * 1000);
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : null;
}
function parseObject(v: unknown): Record<string, unknown> | null {
  if (typeof v !== "string") return obj(v);
  try {
    return obj(JSON.parse(v));
  } catch {
    return null;
  }
}
function isMediaType(t: string): t is MediaType {
  return (MEDIA_TYPES as readonly string[]).includes(t);
}
/** Per-item insurance: one item the readers above did not foresee must not sink the delivery. */
function guard(fn: () => void): void {
  try {
    fn();
  } catch {
    /* skipped */
  }
}
