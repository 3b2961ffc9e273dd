// The team inbox's fields of the Conversation wire (docs/api-decisions.md "Team inbox"), loaded for a
// whole page at once: a few queries per page, never one per row.
import { and, eq, inArray } from "drizzle-orm";
import { automations, channels, users } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { effectiveRouting, type RoutingMode } from "@/lib/shared/routing-modes";
import { aiCanAnswer } from "./ai-can-answer";
import type { ConversationRow } from "./row";
import type { ThreadOwner } from "./thread-owner";
import { callingMemberId, unreadCounts } from "./views";

export interface InboxFields {
  assignee: { id: string; name: string | null; email: string } | null;
  assigned_at: string | null;
  assigned_by: { type: "member" | "api_key"; id: string; name: string } | null;
  unread_count: number | null;
  ai_can_answer: boolean;
}

/** Conversation id → its inbox fields; `owners` is the page's thread owners (serialize.ts). */
export async function inboxFieldsOf(ctx: Ctx, rows: ConversationRow[], owners: Map<string, ThreadOwner>): Promise<Map<string, InboxFields>> {
  const assignees = await assigneesOf(ctx, rows);
  const member = callingMemberId(ctx);
  const unread = member
    ? await unreadCounts(
        ctx,
        member,
        rows.map((r) => r.id),
      )
    : null;
  const routing = await routingOf(ctx, rows);
  const activeAutomation = [...routing.values()].includes("FLOWS") && (await hasActiveAutomation(ctx));
  return new Map(
    rows.map((row) => {
      const fields: InboxFields = {
        assignee: row.assigneeUserId ? (assignees.get(row.assigneeUserId) ?? null) : null,
        assigned_at: row.assigneeUserId ? (row.assignedAt?.toISOString() ?? null) : null,
        assigned_by:
          row.assigneeUserId && row.assignedByType && row.assignedById
            ? { type: row.assignedByType, id: row.assignedById, name: row.assignedByName ?? row.assignedById }
            : null,
        unread_count: unread ? (unread.get(row.id) ?? 0) : null,
        ai_can_answer: aiCanAnswer({
          handoff: row.handoffStatus,
          routing: routing.get(row.id) ?? ctx.project.routingMode,
          owner: owners.get(row.id) ?? null,
          activeAutomation,
        }),
      };
      return [row.id, fields] as const;
    }),
  );
}

/** The assigned members' names and emails (a user of the organization; one who left still shows). */
async function assigneesOf(ctx: Ctx, rows: ConversationRow[]) {
  const ids = [...new Set(rows.map((r) => r.assigneeUserId).filter((id): id is string => id !== null))];
  if (!ids.length) return new Map<string, NonNullable<InboxFields["assignee"]>>();
  const found = await ctx.db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(inArray(users.id, ids));
  return new Map(found.map((u) => [u.id, u]));
}

/** Conversation id → the effective routing of its last channel, for the AI_ACTIVE rows (the others cannot answer anyway). */
async function routingOf(ctx: Ctx, rows: ConversationRow[]): Promise<Map<string, RoutingMode>> {
  const open = rows.filter((r) => r.handoffStatus === "AI_ACTIVE");
  const channelIds = [...new Set(open.map((r) => r.lastChannelId).filter((id): id is string => id !== null))];
  const found = channelIds.length
    ? await ctx.db
        .select({ id: channels.id, isSandbox: channels.isSandbox, routingMode: channels.routingMode })
        .from(channels)
        .where(inArray(channels.id, channelIds))
    : [];
  const byId = new Map(found.map((c) => [c.id, c]));
  return new Map(open.map((r) => [r.id, effectiveRouting(ctx.project.routingMode, r.lastChannelId ? byId.get(r.lastChannelId) : null)]));
}

async function hasActiveAutomation(ctx: Ctx): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: automations.id })
    .from(automations)
    .where(and(eq(automations.projectId, ctx.project.id), eq(automations.active, true)))
    .limit(1);
  return row !== undefined;
}
