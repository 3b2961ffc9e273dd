import { and, eq, inArray, sql } from "drizzle-orm";
import { businessAgents, channels, contacts, conversations, threadControlStates } from "@/lib/db/schema";
import { effectiveRouting } from "@/lib/shared/routing-modes";
import type { Ctx } from "@/lib/domain/context";
import { resolveOwner, type ThreadOwner } from "./thread-owner";
import type { ConversationRow } from "./row";
import { lastCustomerMessageAtSql, messagingWindow } from "./window";
import { inboxFieldsOf } from "./serialize-inbox";

export async function serializeConversation(ctx: Ctx, row: ConversationRow) {
  const [conversation] = await serializeConversations(ctx, [row]);
  return conversation!;
}

/**
 * Conversation wire objects; phone, name and reference_id come from the project's contact, the
 * messaging window from the customer's last message on the conversation's last channel (the channel
 * the dashboard replies on).
 */
export async function serializeConversations(ctx: Ctx, rows: ConversationRow[]) {
  const ids = [...new Set(rows.map((r) => r.contactId))];
  const contactRows = ids.length
    ? await ctx.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.projectId, ctx.project.id), inArray(contacts.id, ids)))
    : [];
  const byId = new Map(contactRows.map((c) => [c.id, c]));
  const lastInbound = await lastInboundOnLastChannel(ctx, rows);
  const owners = await threadOwnersOnLastChannel(ctx, rows);
  const inbox = await inboxFieldsOf(ctx, rows, owners);
  return rows.map((row) => {
    // Without its contact row (erased or removed) a conversation still serializes, with null contact
    // fields: one missing row must not turn the whole list into a 500.
    const contact = byId.get(row.contactId);
    return {
      object: "conversation" as const,
      id: row.id,
      conversation_id: row.id,
      contact_id: row.contactId,
      phone: contact?.phone ?? null,
      name: contact?.name ?? null,
      reference_id: contact?.referenceId ?? null,
      last_channel_id: row.lastChannelId,
      is_active: row.isActive,
      handoff: { status: row.handoffStatus, reason: row.handoffReason, handoff_at: row.handoffAt?.toISOString() ?? null },
      started_at: row.startedAt.toISOString(),
      last_message_at: row.lastMessageAt?.toISOString() ?? null,
      messaging_window: messagingWindow(lastInbound.get(row.id) ?? null, ctx.now),
      thread_owner: owners.get(row.id) ?? null,
      ...inbox.get(row.id)!,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  });
}

/** Conversation id → the customer's last message time on its last channel, one query for a whole page. */
async function lastInboundOnLastChannel(ctx: Ctx, rows: ConversationRow[]): Promise<Map<string, Date | null>> {
  const ids = rows.filter((row) => row.lastChannelId !== null).map((row) => row.id);
  if (!ids.length) return new Map();
  const found = await ctx.db
    .select({ id: conversations.id, at: lastCustomerMessageAtSql(sql`${conversations}.last_channel_id`) })
    .from(conversations)
    .where(and(eq(conversations.projectId, ctx.project.id), inArray(conversations.id, ids)));
  return new Map(found.map((row) => [row.id, row.at]));
}

/**
 * Conversation id → who owns the thread on its last channel (thread-owner.ts
 * resolveOwner), one query for a whole page. Only a last channel that routes AGENT has an owner on the
 * wire (docs/api-decisions.md "Business agents: thread owner on the conversation"): elsewhere the
 * handoff already says all the inbox needs. Outside an AGENT project no channel routes AGENT, so the
 * map stays empty without a query.
 */
async function threadOwnersOnLastChannel(ctx: Ctx, rows: ConversationRow[]): Promise<Map<string, ThreadOwner>> {
  if (ctx.project.routingMode !== "AGENT") return new Map();
  const ids = rows.filter((row) => row.lastChannelId !== null).map((row) => row.id);
  if (!ids.length) return new Map();
  const found = await ctx.db
    .select({
      id: conversations.id,
      agentId: businessAgents.id,
      agentStatus: businessAgents.status,
      owner: threadControlStates.owner,
      businessAgentId: threadControlStates.businessAgentId,
      metaResult: threadControlStates.metaResult,
      isSandbox: channels.isSandbox,
      routingMode: channels.routingMode,
    })
    .from(conversations)
    .innerJoin(channels, eq(channels.id, conversations.lastChannelId))
    .leftJoin(
      threadControlStates,
      and(
        eq(threadControlStates.projectId, conversations.projectId),
        eq(threadControlStates.channelId, conversations.lastChannelId),
        eq(threadControlStates.contactId, conversations.contactId),
      ),
    )
    .leftJoin(businessAgents, and(eq(businessAgents.projectId, conversations.projectId), eq(businessAgents.channelId, conversations.lastChannelId)))
    .where(and(eq(conversations.projectId, ctx.project.id), inArray(conversations.id, ids)));
  return new Map(
    found
      .filter((row) => effectiveRouting(ctx.project.routingMode, row) === "AGENT")
      .map((row) => {
        const agent = row.agentId && row.agentStatus ? { id: row.agentId, status: row.agentStatus } : null;
        const stored = row.owner ? { owner: row.owner, businessAgentId: row.businessAgentId, metaResult: row.metaResult ?? {} } : null;
        return [row.id, resolveOwner({ routesAgent: true, agent, stored }).owner];
      }),
  );
}
