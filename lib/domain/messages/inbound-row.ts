import { and, eq } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";

/** What a job that answers a customer's message (automations, the business agent) reads of it. */
export type InboundMessageRow = Pick<
  typeof messages.$inferSelect,
  "id" | "projectId" | "conversationId" | "contactId" | "channelId" | "type" | "content" | "body"
>;

/** The columns an InboundMessageRow is selected with (`db.select(INBOUND_MESSAGE_COLUMNS)`). */
export const INBOUND_MESSAGE_COLUMNS = {
  id: messages.id,
  projectId: messages.projectId,
  conversationId: messages.conversationId,
  contactId: messages.contactId,
  channelId: messages.channelId,
  type: messages.type,
  content: messages.content,
  body: messages.body,
};

/** The stored customer message, or null (an id of an outbound message is not one). */
export async function loadInboundMessage(db: Db, messageId: string): Promise<InboundMessageRow | null> {
  const [message] = await db
    .select(INBOUND_MESSAGE_COLUMNS)
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.direction, "inbound")));
  return message ?? null;
}
