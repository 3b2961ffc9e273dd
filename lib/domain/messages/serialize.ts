import type { messages } from "@/lib/db/schema";
import type { InboundInteractive, NormalizedInboundMessage } from "@/lib/domain/ingest/types";
import type { ContactCard, InteractiveContent, LocationContent, OutboundContent, TemplateContent } from "@/lib/ports/provider/outbound";

export type MessageRow = typeof messages.$inferSelect;

/**
 * The structured content of a Message (lib/api/schemas/messages-read.ts): each field null unless it
 * is the message's content. Outbound in the send request's shape, inbound in message.received's.
 */
export interface MessageContentFields {
  interactive: InteractiveContent | InboundInteractive | null;
  location: LocationContent | NonNullable<NormalizedInboundMessage["location"]> | null;
  contacts: ContactCard[] | null;
  template: TemplateContent | null;
  reaction: { message_id: string; emoji: string } | null;
  sticker: { id?: string; link?: string } | null;
}

const NO_CONTENT: MessageContentFields = { interactive: null, location: null, contacts: null, template: null, reaction: null, sticker: null };

/** Message, exactly the spec's fields (+ reply_to and the structured content). Media URLs are re-signed by the media module. */
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
    ...contentFieldsOf(row.body),
    timestamp: row.timestamp.toISOString(),
  };
}

/**
 * The structured content of a stored message, read from `messages.body`: the send verb stores the
 * validated OutboundContent there (`kind` tells it apart), ingest the normalised provider message
 * (business-app echoes too), and a revoke replaces it with a content-free tombstone. Reading it
 * from the one place each path already writes keeps edits and deletes in force without a second copy.
 */
export function contentFieldsOf(body: Record<string, unknown>): MessageContentFields {
  if (typeof body.kind === "string") return sentContentFields(body as unknown as OutboundContent);
  if (body.revoked === true) return NO_CONTENT;
  const received = body as Partial<NormalizedInboundMessage>;
  return {
    ...NO_CONTENT,
    interactive: received.interactive ?? null,
    location: received.location ?? null,
    contacts: received.contacts ?? null,
    reaction: received.reaction ?? null,
  };
}

/** The structured content of an outbound message as sent (text and media have none here). */
export function sentContentFields(content: OutboundContent): MessageContentFields {
  switch (content.kind) {
    case "interactive":
      return { ...NO_CONTENT, interactive: content.interactive };
    case "location":
      return { ...NO_CONTENT, location: content.location };
    case "contacts":
      return { ...NO_CONTENT, contacts: content.contacts };
    case "template":
      return { ...NO_CONTENT, template: content.template };
    case "reaction":
      return { ...NO_CONTENT, reaction: content.reaction };
    case "sticker":
      return { ...NO_CONTENT, sticker: content.sticker };
    case "text":
    case "media":
      return NO_CONTENT;
  }
}
