// The team inbox's views and window filters over the conversation list, and their counts
// (docs/api-decisions.md "Team inbox"). Each is one condition over `conversations`, qualified by hand
// like the list's other filters (list.ts), so the list and the counts apply the same rule.
import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { conversationReads, conversations, messages } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { SvcError } from "@/lib/errors";
import type { ConversationView, WindowFilter } from "@/lib/shared/inbox";
import { MESSAGING_WINDOW_MS as WINDOW_MS, lastCustomerMessageAtSql } from "./window";

/** "closing": the window closes within this long (contract: 1 h). */
const CLOSING_MS = 3600_000;

/** The member the caller is (an operator in the dashboard), or null for an API key or the system: keys have no read state and no "mine". */
export function callingMemberId(ctx: Pick<Ctx, "actor">): string | null {
  return ctx.actor.type === "user" ? ctx.actor.id : null;
}

/** What needs a member (view=mine, a read marker) refuses a key with what to do instead. */
export function memberOrRefuse(ctx: Pick<Ctx, "actor">, what: string, instead: string): string {
  const member = callingMemberId(ctx);
  if (member) return member;
  throw new SvcError("unprocessable", `${what} means the signed-in member, and an API key is not one. ${instead}`);
}

function timestampSql(at: Date): SQL {
  return sql`${at.toISOString()}::timestamptz`;
}

/** The customer's last message on the conversation's last channel: the one the window is measured on (window.ts). */
const lastInbound = () => lastCustomerMessageAtSql(sql`${conversations}.last_channel_id`);

/** The messaging window's state on the last channel, by the same 24 h rule as messagingWindow (window.ts). */
export function windowSql(window: WindowFilter, now: Date): SQL {
  const opensAfter = timestampSql(new Date(now.getTime() - WINDOW_MS));
  if (window === "open") return sql`coalesce(${lastInbound()} > ${opensAfter}, false)`;
  if (window === "closed") return sql`not coalesce(${lastInbound()} > ${opensAfter}, false)`;
  const closingFrom = timestampSql(new Date(now.getTime() - WINDOW_MS + CLOSING_MS));
  return sql`coalesce(${lastInbound()} > ${opensAfter} and ${lastInbound()} <= ${closingFrom}, false)`;
}

/** A view as a condition; `all` is none. */
export function viewSql(ctx: Pick<Ctx, "actor" | "now">, view: ConversationView): SQL | undefined {
  switch (view) {
    case "all":
      return undefined;
    case "open":
      return windowSql("open", ctx.now);
    case "needs_person":
      return eq(conversations.handoffStatus, "HUMAN_ACTIVE");
    case "mine":
      return eq(conversations.assigneeUserId, memberOrRefuse(ctx, "view=mine", "Use assignee=<member user id> instead."));
    case "unassigned":
      return isNull(conversations.assigneeUserId);
  }
}

/** assignee=<user id> or `none`. */
export function assigneeSql(assignee: string): SQL {
  return assignee === "none" ? isNull(conversations.assigneeUserId) : eq(conversations.assigneeUserId, assignee);
}

/**
 * The member has unread customer messages: an inbound message stored after their last read (all of
 * them while they never read it). Stored time (created_at), not the provider's: the read is our clock
 * too, and a late-delivered message with an older provider time must still count.
 */
export function unreadSql(memberId: string): SQL {
  return sql`exists (select 1 from ${messages} m where m.conversation_id = ${conversations}.id and m.direction = 'inbound' and m.created_at > coalesce((select r.last_read_at from ${conversationReads} r where r.conversation_id = ${conversations}.id and r.user_id = ${memberId}), '-infinity'::timestamptz))`;
}

/** Conversation id → the member's unread customer messages, for a page of conversations in one query. */
export async function unreadCounts(ctx: Ctx, memberId: string, ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const rows = await ctx.db
    .select({ id: messages.conversationId, n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(messages)
    .leftJoin(conversationReads, and(eq(conversationReads.conversationId, messages.conversationId), eq(conversationReads.userId, memberId)))
    .where(
      and(
        eq(messages.projectId, ctx.project.id),
        inArray(messages.conversationId, ids),
        eq(messages.direction, "inbound"),
        sql`(${conversationReads.lastReadAt} is null or ${messages.createdAt} > ${conversationReads.lastReadAt})`,
      ),
    )
    .groupBy(messages.conversationId);
  return new Map(rows.map((row) => [row.id!, row.n]));
}
