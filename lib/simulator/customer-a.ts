import type { CustomerInput } from "@/lib/simulator/customer-input";
import { platformAEnvelope, unixSeconds, type Envelope } from "@/lib/simulator/envelopes";
import { wamid } from "@/lib/simulator/ids";
import type { SenderInfo, StoredMedia } from "@/lib/simulator/state";

/**
 * A PLATFORM_A customer action as the provider's "messages" webhook:
 *   value.contacts = [{profile:{name}, wa_id}], value.messages = [{from, id, timestamp, type, <type>:{...}, context?}]
 * Message objects per type:
 *   text {body} · image|video {mime_type, sha256, id, caption?} · document {…, filename?}
 *   · audio {mime_type, sha256, id, voice} · sticker {mime_type, sha256, id, animated}
 *   · location {latitude, longitude, name?, address?, url?} · contacts [cards]
 *   · interactive {type:"button_reply", button_reply:{id, title}} | {type:"list_reply", list_reply:{id, title, description?}}
 *     | {type:"nfm_reply", nfm_reply:{name:"flow", body:"Sent", response_json:"<JSON string with flow_token>"}}
 *   · button {payload, text} · reaction {message_id, emoji} · edit {original_message_id, message:{type:"text", text:{body}}}
 *   · revoke {original_message_id} · system {body, type, new_wa_id?}
 *   · unsupported: errors:[{code:131051, title, message, error_data:{details}}], unsupported:{type}
 * A reply quotes through context {from:<business display number>, id:<quoted wamid>}.
 */
export function buildPlatformAInbound(input: CustomerInput, sender: SenderInfo, media: StoredMedia | null, at: Date): { id: string; envelope: Envelope } {
  const from = input.from.replace(/^\+/, "");
  const id = wamid(from);
  const message: Record<string, unknown> = { from, id, timestamp: unixSeconds(at) };
  if (input.reply_to) message.context = { from: sender.displayPhoneNumber, id: input.reply_to };
  if (input.type === "unsupported") message.errors = [UNSUPPORTED_ERROR];
  const [type, value] = typedContent(input, media);
  message.type = type;
  message[type] = value;

  const contact = { profile: { name: input.name ?? "Simulated Customer" }, wa_id: from };
  return { id, envelope: platformAEnvelope(input.sender_id, sender, { contacts: [contact], messages: [message] }) };
}

const UNSUPPORTED_ERROR = {
  code: 131051,
  title: "Message type unknown",
  message: "Message type unknown",
  error_data: { details: "Message type is currently not supported." },
};

/** The message's `type` and the object stored under that key (the per-type shapes above). */
function typedContent(input: CustomerInput, media: StoredMedia | null): [type: string, value: unknown] {
  switch (input.type) {
    case "text":
      return ["text", { body: input.text ?? "" }];
    case "image":
    case "video":
    case "document":
    case "audio":
    case "sticker":
      return [input.type, mediaObject(input, input.type, media)];
    case "location": {
      const loc = input.location!;
      const object: Record<string, unknown> = { latitude: loc.latitude, longitude: loc.longitude };
      if (loc.name) object.name = loc.name;
      if (loc.address) object.address = loc.address;
      if (loc.url) object.url = loc.url;
      return ["location", object];
    }
    case "contacts":
      return ["contacts", input.contacts];
    case "button_reply":
      return ["interactive", { type: "button_reply", button_reply: { id: input.reply!.id, title: input.reply!.title } }];
    case "list_reply": {
      const reply: Record<string, unknown> = { id: input.reply!.id, title: input.reply!.title };
      if (input.reply!.description) reply.description = input.reply!.description;
      return ["interactive", { type: "list_reply", list_reply: reply }];
    }
    case "flow_completion": {
      const flow = input.flow!;
      const responseJson = JSON.stringify({ ...(flow.response ?? {}), flow_token: flow.flow_token });
      return ["interactive", { type: "nfm_reply", nfm_reply: { name: "flow", body: "Sent", response_json: responseJson } }];
    }
    case "button":
      return ["button", { payload: input.button!.payload, text: input.button!.text }];
    case "reaction":
      return ["reaction", { message_id: input.reaction!.message_id, emoji: input.reaction!.emoji }];
    case "edit":
      return ["edit", { original_message_id: input.edit!.message_id, message: { type: "text", text: { body: input.edit!.text } } }];
    case "revoke":
      return ["revoke", { original_message_id: input.revoke!.message_id }];
    case "system": {
      const system: Record<string, unknown> = {
        body: input.system?.body ?? "User changed their number",
        type: input.system?.type ?? "user_changed_number",
      };
      if (input.system?.new_wa_id) system.new_wa_id = input.system.new_wa_id;
      return ["system", system];
    }
    case "unsupported":
      return ["unsupported", { type: input.unsupported?.type ?? "poll_creation" }];
    case "postback":
      throw new Error("postback is not a PLATFORM_A message type");
  }
}

/** image, video, document, audio, sticker: the stored upload's id and hash, with the type's own fields. */
function mediaObject(input: CustomerInput, type: "image" | "video" | "document" | "audio" | "sticker", media: StoredMedia | null): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  if (input.media?.caption && (type === "image" || type === "video" || type === "document")) {
    object.caption = input.media.caption;
  }
  if (type === "document") {
    const filename = input.media?.filename ?? media?.filename;
    if (filename) object.filename = filename;
  }
  object.mime_type = media?.mime_type ?? input.media?.mime_type ?? "application/octet-stream";
  object.sha256 = media?.sha256 ?? "";
  object.id = media?.id ?? "";
  if (type === "audio") object.voice = input.media?.voice ?? false;
  if (type === "sticker") object.animated = input.media?.animated ?? false;
  return object;
}
