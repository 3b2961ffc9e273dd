import type { Message } from "@/lib/client/inbox";
import type { SentItem } from "./customer-store";

/**
 * A customer message svc recorded (the conversation's inbound messages) as a phone bubble: it covers
 * what this number sent from elsewhere (another browser, the simulator API) or before a reload.
 */
export function inboundAsSent(message: Message): SentItem {
  const base = { localId: message.id, at: message.timestamp, state: "sent" as const, ...(message.platform_message_id ? { providerMessageId: message.platform_message_id } : {}) };
  const text = message.content ?? undefined;
  switch (message.type) {
    case "image":
    case "sticker":
      return { ...base, kind: "image", ...(text ? { caption: text } : {}) };
    case "document":
    case "video":
    case "audio":
      return { ...base, kind: "document", ...(text ? { caption: text } : {}) };
    case "location":
      return { ...base, kind: "text", text: `Location: ${text ?? "shared a location"}` };
    case "interactive":
      return { ...base, kind: "button_reply", reply: { id: "", title: text ?? "(reply)" } };
    default:
      return { ...base, kind: "text", text: text ?? `(${message.type} message)` };
  }
}
