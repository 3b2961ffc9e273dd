import { eq, sql, type Placeholder, type SQL } from "drizzle-orm";
import { conversations, messages } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";

/** 24 hours since the customer's last message on the channel (provider timestamp). */
export const MESSAGING_WINDOW_MS = 24 * 3600_000;

/** The Conversation's `messaging_window` (docs/api-decisions.md "Conversation filters and channel disconnect"). */
export interface MessagingWindow {
  open: boolean;
  /** When it closes (or closed); null while the customer has never written on the channel. */
  closes_at: string | null;
}

/**
 * The one window rule: free-form messages are allowed for 24 h after the customer's last message on
 * the channel. POST /messages refuses by it and the Conversation object reports it, so the two agree.
 */
export function messagingWindow(lastCustomerMessageAt: Date | null, now: Date): MessagingWindow {
  if (!lastCustomerMessageAt) return { open: false, closes_at: null };
  const closesAt = lastCustomerMessageAt.getTime() + MESSAGING_WINDOW_MS;
  return { open: now.getTime() < closesAt, closes_at: new Date(closesAt).toISOString() };
}

/** When the customer last wrote on this channel (provider time), or null. */
export async function lastCustomerMessageAt(db: Db, conversationId: string, channelId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: lastCustomerMessageAtSql(channelId) })
    .from(conversations)
    .where(eq(conversations.id, conversationId));
  return row?.at ?? null;
}

/**
 * The conversation's last customer message on a channel, as a column of any select over `conversations`.
 * Qualified by hand: in a one-table select drizzle leaves columns bare, and a bare "id" in the
 * subquery would be the message's.
 */
export function lastCustomerMessageAtSql(channelId: string | Placeholder | SQL) {
  return sql<Date | null>`(select max(m.provider_timestamp) from ${messages} m where m.conversation_id = ${conversations}.id and m.channel_id = ${channelId} and m.direction = 'inbound')`.mapWith(
    (v) => (v ? new Date(v) : null),
  );
}
