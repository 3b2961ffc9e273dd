import type { OutboundContent } from "@/lib/ports/provider/outbound";

/** Helpers over validated outbound content (the types: lib/ports/provider/outbound.ts). */

/** Message.type as stored and returned: media messages take their media type. */
export function messageTypeOf(content: OutboundContent): string {
  return content.kind === "media" ? content.media.type : content.kind;
}

/** Message.content as stored: the human-readable text of the message, when it has one. */
export function messageTextOf(content: OutboundContent): string | null {
  switch (content.kind) {
    case "text":
      return content.text;
    case "media":
      return content.media.caption ?? null;
    case "interactive":
      return content.interactive.body;
    case "reaction":
      return content.reaction.emoji;
    case "location":
      return content.location.name ?? null;
    default:
      return null;
  }
}
