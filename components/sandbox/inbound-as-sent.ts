import type { Message } from "@/lib/client/inbox";
import type { SentItem } from "./customer-store";

/**
 * A customer message svc recorded (the conversation's inbound messages) as a phone bubble: it covers
 * what this number sent from elsewhere (another browser, the simulator API) or before a reload.
 */
export function inboundAsSent(message: Message): SentItem {
  const base = {
    localId: message.id,
    at: message.timestamp,
    state: "sent" as const,
    ...(message.platform_message_id ? { providerMessageId: message.platform_message_id } : {}),
  };
  const text = message.content ?? undefined;
  switch (message.type) {
    case "image":
    case "sticker":
      return { ...base, kind: "image", ...(text ? { caption: text } : {}) };
    case "document":
    case "video":
    case "audio":
      return { ...base, kind: "document", ...(text ? { caption: text } : {}) };
    case "location": {
      const location = message.location;
      if (!location) return { ...base, kind: "text", text: `Location: ${text ?? "shared a location"}` };
      const { latitude, longitude } = location;
      return {
        ...base,
        kind: "location",
        location: { latitude, longitude, ...(location.name ? { name: location.name } : {}), ...(location.address ? { address: location.address } : {}) },
      };
    }
    case "interactive": {
      // What the customer tapped, from the wire (message.received's interactive reply).
      const reply = message.interactive && !("body" in message.interactive) ? message.interactive : null;
      if (reply?.type === "nfm_reply") return { ...base, kind: "flow_completion", ...(reply.response ? { response: reply.response } : {}) };
      return {
        ...base,
        kind: reply?.type === "list_reply" ? "list_reply" : "button_reply",
        reply: { id: reply?.id ?? "", title: reply?.title ?? text ?? "(reply)" },
      };
    }
    default:
      return { ...base, kind: "text", text: text ?? `(${message.type} message)` };
  }
}
