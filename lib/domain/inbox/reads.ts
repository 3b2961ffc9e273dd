import { sql } from "drizzle-orm";
import { conversationReads } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { getConversation, getConversationRowOrThrow } from "@/lib/domain/conversations";
import { memberOrRefuse } from "@/lib/domain/conversations/views";
import { publishInboxEvent } from "@/lib/domain/inbox-live";

/**
 * The dashboard's POST …/conversations/{id}/read (docs/api-decisions.md "Team inbox"): the calling
 * member has read the conversation up to now, so its unread_count for them drops to 0. Only a member
 * has read state. A read never moves back (two tabs racing keep the later one).
 */
export async function markConversationRead(ctx: Ctx, id: string) {
  const member = memberOrRefuse(ctx, "Marking a conversation read", "Read state exists in the dashboard only.");
  const conversation = await getConversationRowOrThrow(ctx, id);
  await ctx.db
    .insert(conversationReads)
    .values({ projectId: ctx.project.id, conversationId: conversation.id, userId: member, lastReadAt: ctx.now })
    .onConflictDoUpdate({
      target: [conversationReads.conversationId, conversationReads.userId],
      set: { lastReadAt: sql`greatest(${conversationReads.lastReadAt}, excluded.last_read_at)` },
    });
  // The reader's other tabs drop the unread badge too (the stream is per project: other members
  // refetch a conversation whose unread count for them did not change, a cheap read).
  publishInboxEvent(ctx.project.id, { type: "conversation.updated", conversation_id: conversation.id });
  return getConversation(ctx, conversation.id);
}
