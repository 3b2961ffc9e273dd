import type { messages } from "@/lib/db/schema";

export type MessageInsert = typeof messages.$inferInsert;

/** Where a message belongs: the same four ids on every stored message. */
export interface MessagePlace {
  projectId: string;
  conversationId: string;
  contactId: string;
  channelId: string;
}

/** What a message is and when: `at` is the message's own time (its timestamp), `now` when we store it. */
export interface MessageFacts {
  id: string;
  direction: MessageInsert["direction"];
  type: string;
  status: MessageInsert["status"];
  content: string | null;
  body: Record<string, unknown>;
  at: Date;
  now: Date;
}

/** Columns only some paths set (a send's key and recipient, an inbound message's provider id and time, ...). */
export type MessageExtras = Pick<
  MessageInsert,
  "platformMessageId" | "recipient" | "replyTo" | "media" | "providerTimestamp" | "idempotencyKey" | "arrivalRoutingMode" | "arrivalHandoff"
>;

/**
 * The one builder of message rows (send, inbound message, business-app echo). Extras left undefined
 * are not set at all, so the column keeps its default and the insert keeps its shape.
 */
export function messageRow(place: MessagePlace, facts: MessageFacts, extras: MessageExtras = {}): MessageInsert & { createdAt: Date; updatedAt: Date } {
  return {
    id: facts.id,
    projectId: place.projectId,
    conversationId: place.conversationId,
    contactId: place.contactId,
    channelId: place.channelId,
    direction: facts.direction,
    type: facts.type,
    status: facts.status,
    content: facts.content,
    body: facts.body,
    ...extras,
    timestamp: facts.at,
    createdAt: facts.now,
    updatedAt: facts.now,
  };
}
