import type { ProviderPlatform } from "@/lib/ports/provider/types";
import type { CustomerInput } from "@/lib/simulator/customer-input";
import { messengerEnvelope, type Envelope } from "@/lib/simulator/envelopes";
import { instagramMid, messengerMid } from "@/lib/simulator/ids";

/**
 * A PLATFORM_B / PLATFORM_C customer action as a Messenger Platform webhook `messaging` item:
 *   {sender:{id:<user id>}, recipient:{id:<account or page id>}, timestamp:<ms>, <event>}
 * Events:
 *   message {mid, text} · message {mid, attachments:[{type:image|video|audio|file, payload:{url}}]}
 *   · sticker (C): attachments [{type:"image", payload:{url, sticker_id}}]
 *   · location (C): attachments [{type:"location", title, url?, payload:{coordinates:{lat, long}}}]
 *   · quick reply tap: message {mid, text:<title>, quick_reply:{payload:<id>}}
 *   · postback {mid, title, payload} · reaction {mid:<reacted mid>, action:react|unreact, reaction?, emoji?}
 *   · message_edit {mid:<edited mid>, text, num_edit}
 *   · revoke (B): message {mid:<deleted mid>, is_deleted:true} · unsupported (B): message {mid, is_unsupported:true}
 *   · message.reply_to {mid} quotes a message.
 */
export const MESSENGER_CUSTOMER_TYPES: Record<"PLATFORM_B" | "PLATFORM_C", ReadonlySet<string>> = {
  PLATFORM_B: new Set(["text", "image", "audio", "video", "document", "button_reply", "list_reply", "postback", "reaction", "edit", "revoke", "unsupported"]),
  PLATFORM_C: new Set(["text", "image", "audio", "video", "document", "sticker", "location", "button_reply", "list_reply", "postback", "reaction", "edit"]),
};

const ATTACHMENT: Record<string, string> = { image: "image", audio: "audio", video: "video", document: "file", sticker: "image" };

/** The reaction name the Messenger Platform reports next to the emoji. */
function reactionName(emoji: string): string {
  const names: [string, string[]][] = [
    ["love", ["❤️", "❤", "😍", "🥰", "💕"]],
    ["like", ["👍"]],
    ["dislike", ["👎"]],
    ["smile", ["😆", "😂", "😄", "😊", "😀"]],
    ["wow", ["😮", "😲", "😯"]],
    ["sad", ["😢", "😭"]],
    ["angry", ["😠", "😡"]],
  ];
  return names.find(([, emojis]) => emojis.includes(emoji))?.[0] ?? "other";
}

export function buildMessengerInbound(
  input: CustomerInput,
  platform: "PLATFORM_B" | "PLATFORM_C",
  mediaUrl: string | null,
  at: Date,
): { id: string; envelope: Envelope } {
  const newMid = () => (platform === "PLATFORM_B" ? instagramMid(input.sender_id) : messengerMid());
  const item: Record<string, unknown> = {
    sender: { id: input.from },
    recipient: { id: input.sender_id },
    timestamp: at.getTime(),
  };
  const withReply = (message: Record<string, unknown>) => {
    if (input.reply_to) message.reply_to = { mid: input.reply_to };
    return message;
  };
  let id: string;

  switch (input.type) {
    case "text":
      id = newMid();
      item.message = withReply({ mid: id, text: input.text });
      break;
    case "image":
    case "audio":
    case "video":
    case "document":
    case "sticker": {
      id = newMid();
      const payload: Record<string, unknown> = { url: mediaUrl };
      // Messenger reports stickers as images with a sticker id; the simulator always names the same one.
      if (input.type === "sticker") payload.sticker_id = 369239263222822;
      item.message = withReply({ mid: id, attachments: [{ type: ATTACHMENT[input.type], payload }] });
      break;
    }
    case "location": {
      id = newMid();
      const loc = input.location!;
      const attachment: Record<string, unknown> = {
        type: "location",
        title: loc.name ?? "Pinned Location",
        payload: { coordinates: { lat: loc.latitude, long: loc.longitude } },
      };
      if (loc.url) attachment.url = loc.url;
      item.message = withReply({ mid: id, attachments: [attachment] });
      break;
    }
    case "button_reply":
    case "list_reply":
      id = newMid();
      item.message = withReply({ mid: id, text: input.reply!.title, quick_reply: { payload: input.reply!.id } });
      break;
    case "postback":
      id = newMid();
      item.postback = { mid: id, title: input.postback!.title, payload: input.postback!.payload };
      break;
    case "reaction": {
      const { message_id, emoji } = input.reaction!;
      id = message_id;
      item.reaction =
        emoji === ""
          ? { mid: message_id, action: "unreact" }
          : { mid: message_id, action: "react", reaction: platform === "PLATFORM_B" ? "love" : reactionName(emoji), emoji };
      break;
    }
    case "edit":
      id = input.edit!.message_id;
      item.message_edit = { mid: id, text: input.edit!.text, num_edit: 1 };
      break;
    case "revoke":
      id = input.revoke!.message_id;
      item.message = { mid: id, is_deleted: true };
      break;
    case "unsupported":
      id = newMid();
      item.message = { mid: id, is_unsupported: true };
      break;
    default:
      throw new Error(`${input.type} is not a ${platform} message type`);
  }
  return { id, envelope: messengerEnvelope(platform, input.sender_id, at, item) };
}

export function isMessengerPlatform(platform: ProviderPlatform): platform is "PLATFORM_B" | "PLATFORM_C" {
  return platform === "PLATFORM_B" || platform === "PLATFORM_C";
}
