// The conversation list with its filters, each a condition on the project's own rows.
import { and, eq, sql, type SQL } from "drizzle-orm";
import { contacts, conversations, messages } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { serializeConversations } from "./serialize";
import type { ConversationRow } from "./row";
import type { ConversationView, WindowFilter } from "@/lib/shared/inbox";
import { assigneeSql, callingMemberId, unreadSql, viewSql, windowSql } from "./views";

export interface ConversationFilter {
  /** Substring of the contact's name or phone, case-insensitive; LIKE wildcards match themselves. */
  q?: string | undefined;
  channel_id?: string | undefined;
  contact_id?: string | undefined;
  handoff?: ConversationRow["handoffStatus"] | undefined;
  /** A member's user id, or `none` (unassigned). */
  assignee?: string | undefined;
  /** The messaging window on the last channel (views.ts). */
  window?: WindowFilter | undefined;
}

export interface ConversationListInput extends PageParams, ConversationFilter {
  /** The inbox's views (views.ts); `all` when absent. */
  view?: ConversationView | undefined;
}

/**
 * The project's conversations, newest first, narrowed by the filters. Every filter is a condition on
 * the project's own rows, so another project's channel or contact id simply matches nothing (an
 * empty list, as Stripe lists do for filter ids), never a 404 that would confirm the id exists.
 */
export async function listConversations(ctx: Ctx, input: ConversationListInput) {
  const { limit, starting_after, view, ...filter } = input;
  const result = await paginate(
    ctx.db,
    conversations,
    eq(conversations.projectId, ctx.project.id),
    { limit, starting_after },
    and(conversationFilterSql(ctx, filter), viewSql(ctx, view ?? "all")),
  );
  return { data: await serializeConversations(ctx, result.data), has_more: result.has_more };
}

/**
 * The filters as one condition over `conversations`, qualified by hand (see lastCustomerMessageAtSql, window.ts).
 * channel_id matches a conversation that has a message on the channel or whose last channel it is
 * (a conversation opened by a send has no message yet), through the messages_window index.
 */
function conversationFilterSql(ctx: Pick<Ctx, "project" | "now">, filter: ConversationFilter): SQL | undefined {
  const q = filter.q?.trim();
  return and(
    filter.assignee !== undefined ? assigneeSql(filter.assignee) : undefined,
    filter.window !== undefined ? windowSql(filter.window, ctx.now) : undefined,
    filter.contact_id !== undefined ? eq(conversations.contactId, filter.contact_id) : undefined,
    filter.handoff !== undefined ? eq(conversations.handoffStatus, filter.handoff) : undefined,
    filter.channel_id !== undefined
      ? sql`(${conversations}.last_channel_id = ${filter.channel_id} or exists (select 1 from ${messages} m where m.conversation_id = ${conversations}.id and m.channel_id = ${filter.channel_id}))`
      : undefined,
    q ? contactMatches(ctx.project.id, q) : undefined,
  );
}

/**
 * GET /conversations/counts: how many conversations each view holds under the same filters, in one
 * pass over the project's conversations. `mine` and `unread` are the calling member's: null for a key.
 */
export async function countConversations(ctx: Ctx, filter: ConversationFilter) {
  const member = callingMemberId(ctx);
  const count = (condition: SQL | undefined) => sql<number>`(count(*) filter (where ${condition ?? sql`true`}))::int`.mapWith(Number);
  const [row] = await ctx.db
    .select({
      all: count(undefined),
      open: count(viewSql(ctx, "open")),
      needs_person: count(viewSql(ctx, "needs_person")),
      mine: count(member ? assigneeSql(member) : sql`false`),
      unassigned: count(viewSql(ctx, "unassigned")),
      unread: count(member ? unreadSql(member) : sql`false`),
    })
    .from(conversations)
    .where(and(eq(conversations.projectId, ctx.project.id), conversationFilterSql(ctx, filter)));
  return { object: "conversation_counts" as const, ...row!, mine: member ? row!.mine : null, unread: member ? row!.unread : null };
}

/** The conversation's contact (in this project) has `q` in its name or phone; see phoneDigitsOf. */
function contactMatches(projectId: string, q: string): SQL {
  const pattern = `%${escapeLike(q)}%`;
  const digits = phoneDigitsOf(q);
  const byDigits = digits ? sql` or c.phone ilike ${`%${digits}%`}` : sql``;
  return sql`exists (select 1 from ${contacts} c where c.project_id = ${projectId} and c.id = ${conversations}.contact_id and (c.name ilike ${pattern} escape '\\' or c.phone ilike ${pattern} escape '\\'${byDigits}))`;
}

/** `%`, `_` and the escape character itself, escaped so they match literally in a LIKE pattern. */
function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A query typed as a phone number (`+1 (415) 555-0100`, `415-555`): its digits, which is how numbers
 * are stored (E.164), so spaces and dashes do not stop a match. Null for anything else.
 */
function phoneDigitsOf(q: string): string | null {
  if (!/^[\d\s+().-]+$/.test(q)) return null;
  const digits = q.replace(/\D/g, "");
  return digits && digits !== q ? digits : null;
}
