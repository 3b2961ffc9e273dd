import type { messages } from "@/lib/db/schema";

export type MessageRow = typeof messages.$inferSelect;

/** Message, exactly the spec's fields (+ reply_to). Media URLs are re-signed by the media module. */
export function serializeMessage(row: MessageRow) {
  return {
    object: "message" as const,
    id: row.id,
    message_id: row.id,
    conversation_id: row.conversationId,
    contact_id: row.contactId,
    channel_id: row.channelId,
    direction: row.direction,
    type: row.type,
    status: row.status,
    content: row.content,
    platform_message_id: row.platformMessageId,
    reply_to: row.replyTo,
    failure: row.failure ?? null,
    media: row.media ?? null,
    timestamp: row.timestamp.toISOString(),
  };
}
