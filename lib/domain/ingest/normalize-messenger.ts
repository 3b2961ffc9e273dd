import type { InboundEvent, InboundInteractive, InboundMedia, InboundParty, NormalizedInboundMessage } from "./types";

type MessengerPlatform = "PLATFORM_B" | "PLATFORM_C";
type Provider = "platform_b" | "platform_c";

/**
 * PLATFORM_B (`object:"instagram"`) and PLATFORM_C (`object:"page"`) webhook body → normalized inbound
 * events. Pure and total: never throws; malformed items are skipped, a foreign body yields [].
 * Reads `entry[].messaging[]` only (`standby[]`, i.e. threads another app owns, is not read).
 *
 * Mutations reuse the mid of the message they touch, so they get their own dedupe key here
 * (`message.id`): `<mid>:revoke`, `<mid>:edit:<num_edit>`, `<mid>:reaction:<timestamp ms>`.
 * Read receipts that carry only a watermark (Messenger) yield one status event with
 * `platform_message_id: ""` and the whole item (watermark included) in `raw`: the caller marks every
 * outbound message to that user sent at or before the watermark. Deliveries do the same when `mids` is empty.
 */
export function normalizeMessengerWebhook(platform: MessengerPlatform, payload: unknown): InboundEvent[] {
  const body = obj(payload);
  if (!body || (body.object !== "instagram" && body.object !== "page")) return [];
  const events: InboundEvent[] = [];
  for (const entry of objs(body.entry)) {
    for (const item of objs(entry.messaging)) {
      try {
        events.push(...normalizeItem(platform, item));
      } catch {
        /* an item the readers did not foresee is skipped, never thrown */
      }
    }
  }
  return events;
}

function normalizeItem(platform: MessengerPlatform, item: Obj): InboundEvent[] {
  const sender = str(obj(item.sender)?.id);
  const recipient = str(obj(item.recipient)?.id);
  const timestampMs = num(item.timestamp);
  const at = timestampMs === null ? null : toIso(timestampMs);
  if (!sender || !recipient || timestampMs === null || !at) return [];
  const user: InboundParty = { address: null, user_id: sender, parent_user_id: null, username: null, name: null };
  const provider = platform === "PLATFORM_B" ? "platform_b" : "platform_c";
  const message = obj(item.message);
  if (message?.is_echo === true) {
    const parsed = parseMessage(message, at, provider);
    const to: InboundParty = { ...user, user_id: recipient };
    return parsed ? [{ platform, senderId: sender, kind: "echo", to, message: parsed }] : [];
  }
  const inbound = (m: NormalizedInboundMessage | null): InboundEvent[] =>
    m ? [{ platform, senderId: recipient, kind: "message", from: user, message: m }] : [];
  if (message) return inbound(parseMessage(message, at, provider));

  const delivery = obj(item.delivery);
  const read = obj(item.read);
  if (delivery || read) {
    const status = delivery ? "delivered" : "read";
    const mids = delivery ? arr(delivery.mids).map(str) : [str(read?.mid)];
    const known = mids.filter((m): m is string => m !== null);
    return (known.length ? known : [""]).map((mid) => ({
      platform,
      senderId: recipient,
      kind: "status" as const,
      platform_message_id: mid,
      status,
      timestamp: at,
      recipient_id: null,
      recipient_user_id: sender,
      errors: [],
      raw: item,
    }));
  }

  const postback = obj(item.postback);
  if (postback) {
    const title = str(postback.title);
    const id = str(postback.mid) ?? `postback:${sender}:${timestampMs}`;
    const ix = interactive("postback", { title, payload: str(postback.payload) });
    const m = { ...base(id, at), type: "interactive" as const, text: title, interactive: ix };
    const referral = obj(postback.referral);
    return inbound(referral ? { ...m, referral } : m);
  }

  const reaction = obj(item.reaction);
  const reactedTo = str(reaction?.mid);
  if (reaction && reactedTo) {
    const emoji = reaction.action === "unreact" ? "" : (str(reaction.emoji) ?? "");
    const m = { ...base(`${reactedTo}:reaction:${timestampMs}`, at), type: "reaction" as const, text: emoji || null };
    return inbound({ ...m, reaction: { message_id: reactedTo, emoji } });
  }

  const edit = obj(item.message_edit);
  const edited = str(edit?.mid);
  if (edit && edited) {
    const text = typeof edit.text === "string" ? edit.text : "";
    const id = `${edited}:edit:${num(edit.num_edit) ?? timestampMs}`;
    const m = { ...base(id, at), type: "edit" as const, text };
    return inbound({ ...m, edit: { original_message_id: edited, message: { type: "text", text: { body: text } } } });
  }
  return [];
}

/** A `message` object (inbound or echo). */
function parseMessage(message: Obj, at: string, provider: Provider): NormalizedInboundMessage | null {
  const mid = str(message.mid);
  if (!mid) return null;
  if (message.is_deleted === true) return { ...base(`${mid}:revoke`, at), type: "revoke", revoke: { original_message_id: mid } };
  const replyTo = str(obj(message.reply_to)?.mid);
  const msg: NormalizedInboundMessage = { ...base(mid, at), replied_to: replyTo ? { message_id: replyTo, from: null } : null };
  const referral = obj(message.referral);
  if (referral) msg.referral = referral;
  const text = typeof message.text === "string" && message.text !== "" ? message.text : null;
  if (message.is_unsupported === true) {
    return { ...msg, type: "unsupported", unsupported: { type: "unknown", raw_type: "is_unsupported", errors: [] } };
  }
  const attachments = objs(message.attachments);
  const media = mediaOf(attachments, provider);
  if (media.length) {
    const first = media[0] as InboundMedia;
    const parsed = { ...msg, type: first.type, text, media: first };
    return media.length > 1 ? { ...parsed, attachments: media } : parsed;
  }
  if (attachments.length && !text) {
    // share, story_mention, ig_reel, template, fallback, ...: content svc cannot represent.
    const raw = str(attachments[0]?.type) ?? "unknown";
    return { ...msg, type: "unsupported", unsupported: { type: raw, raw_type: raw, errors: [] } };
  }
  if (!text) return null;
  const quickReply = obj(message.quick_reply);
  if (quickReply) {
    const ix = interactive("quick_reply", { title: text, payload: str(quickReply.payload) });
    return { ...msg, type: "interactive", text, interactive: ix };
  }
  return { ...msg, text };
}

const MEDIA_TYPES: Record<string, InboundMedia["type"]> = {
  image: "image",
  video: "video",
  audio: "audio",
  file: "document",
  sticker: "sticker",
};

/**
 * Media attachments. Messenger stickers used to arrive as an `image` with `payload.sticker_id`; during
 * the provider's transition both that image and a `sticker` attachment arrive: the sticker wins.
 */
function mediaOf(attachments: Obj[], provider: Provider): InboundMedia[] {
  const hasSticker = attachments.some((a) => a.type === "sticker");
  const out: InboundMedia[] = [];
  for (const a of attachments) {
    const payload = obj(a.payload);
    const url = str(payload?.url);
    const isStickerImage = a.type === "image" && payload?.sticker_id !== undefined;
    const type = isStickerImage ? "sticker" : MEDIA_TYPES[str(a.type) ?? ""];
    if (!type || !url || (isStickerImage && hasSticker)) continue;
    out.push({
      type,
      provider,
      provider_media_id: null,
      source_url: url,
      mime_type: null,
      file_name: null,
      sha256: null,
      caption: null,
      ...(type === "sticker" ? { animated: false } : {}),
    });
  }
  return out;
}

function base(id: string, at: string): NormalizedInboundMessage {
  return { id, type: "text", text: null, received_at: at, media: null, location: null, interactive: null, replied_to: null };
}

function interactive(type: string, fields: Partial<InboundInteractive>): InboundInteractive {
  return { type, id: null, title: null, description: null, payload: null, response: null, flow_token: null, ...fields };
}

// ---- small, defensive JSON readers -------------------------------------------------------------

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : null;
}
function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
function objs(v: unknown): Obj[] {
  return arr(v)
    .map(obj)
    .filter((o): o is Obj => o !== null);
}
function str(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}
function num(v: unknown): number | null {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}
/** Provider epoch milliseconds → ISO 8601 (a value that can only be seconds is taken as seconds). */
function toIso(v: number): string | null {
  if (v <= 0) return null;
  const date = new Date(v < 1e11 ? v * 1000 : v);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
