// last_message_at only moves forward: messages can be stored out of order (retries, provider timestamps).
import { inArray, sql, type SQL } from "drizzle-orm";
import { conversations } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";

/** Moves many conversations' last message to `at` (a broadcast's batch). */
export async function touchConversations(db: Db, conversationIds: string[], at: Date): Promise<void> {
  if (conversationIds.length === 0) return;
  // Bound as text: postgres-js cannot bind a Date inside a raw sql fragment.
  const moved = sql`${at.toISOString()}::timestamptz`;
  await db
    .update(conversations)
    .set({ lastMessageAt: lastMessageAtMovedTo(moved), updatedAt: at })
    .where(inArray(conversations.id, conversationIds));
}

/** last_message_at moved to `at`, never back (messages can be stored out of order). */
export function lastMessageAtMovedTo(at: SQL) {
  return sql`greatest(coalesce(${conversations.lastMessageAt}, ${at}), ${at})`;
}
