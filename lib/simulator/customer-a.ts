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
export function buildPlatformAInbound(
  input: CustomerInput,
  sender: SenderInfo,
  media: StoredMedia | null,
  at: Date,
): { id: string; envelope: Envelope } {
  const from = input.from.replace(/^\+/, "");
  const id = wamid(from);
  const message: Record<string, unknown> = { from, id, timestamp: unixSeconds(at) };
  if (input.reply_to) message.context = { from: sender.displayPhoneNumber, id: input.reply_to };

  const setType = (type: string, value: unknown) => {
    message.type = type;
    message[type] = value;
  };

  switch (input.type) {
    case "text":
      setType("text", { body: input.text ?? "" });
      break;
    case "image":
    case "video":
    case "document":
    case "audio":
    case "sticker": {
      const object: Record<string, unknown> = {};
      if (input.media?.caption && (input.type === "image" || input.type === "video" || input.type === "document")) {
        object.caption = input.media.caption;
      }
      if (input.type === "document") {
        const filename = input.media?.filename ?? media?.filename;
        if (filename) object.filename = filename;
      }
      object.mime_type = media?.mime_type ?? input.media?.mime_type ?? "application/octet-stream";
      object.sha256 = media?.sha256 ?? "";
      object.id = media?.id ?? "";
      if (input.type === "audio") object.voice = input.media?.voice ?? false;
      if (input.type === "sticker") object.animated = input.media?.animated ?? false;
      setType(input.type, object);
      break;
    }
    case "location": {
      const loc = input.location!;
      const object: Record<string, unknown> = { latitude: loc.latitude, longitude: loc.longitude };
      if (loc.name) object.name = loc.name;
      if (loc.address) object.address = loc.address;
      if (loc.url) object.url = loc.url;
      setType("location", object);
      break;
    }
    case "contacts":
      setType("contacts", input.contacts);
      break;
    case "button_reply":
      setType("interactive", { type: "button_reply", button_reply: { id: input.reply!.id, title: input.reply!.title } });
      break;
    case "list_reply": {
      const reply: Record<string, unknown> = { id: input.reply!.id, title: input.reply!.title };
      if (input.reply!.description) reply.description = input.reply!.description;
      setType("interactive", { type: "list_reply", list_reply: reply });
      break;
    }
    case "flow_completion": {
      const flow = input.flow!;
      const responseJson = JSON.stringify({ ...(flow.response ?? {}), flow_token: flow.flow_token });
      setType("interactive", { type: "nfm_reply", nfm_reply: { name: "flow", body: "Sent", response_json: responseJson } });
      break;
    }
    case "button":
      setType("button", { payload: input.button!.payload, text: input.button!.text });
      break;
    case "reaction":
      setType("reaction", { message_id: input.reaction!.message_id, emoji: input.reaction!.emoji });
      break;
    case "edit":
      setType("edit", {
        original_message_id: input.edit!.message_id,
        message: { type: "text", text: { body: input.edit!.text } },
      });
      break;
    case "revoke":
      setType("revoke", { original_message_id: input.revoke!.message_id });
      break;
    case "system": {
      const system: Record<string, unknown> = {
        body: input.system?.body ?? "User changed their number",
        type: input.system?.type ?? "user_changed_number",
      };
      if (input.system?.new_wa_id) system.new_wa_id = input.system.new_wa_id;
      setType("system", system);
      break;
    }
    case "unsupported":
      message.errors = [
        {
          code: 131051,
          title: "Message type unknown",
          message: "Message type unknown",
          error_data: { details: "Message type is currently not supported." },
        },
      ];
      setType("unsupported", { type: input.unsupported?.type ?? "poll_creation" });
      break;
    case "postback":
      throw new Error("postback is not a PLATFORM_A message type");
  }

  const contact = { profile: { name: input.name ?? "Simulated Customer" }, wa_id: from };
  return { id, envelope: platformAEnvelope(input.sender_id, sender, { contacts: [contact], messages: [message] }) };
}
