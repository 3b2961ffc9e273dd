import { and, eq } from "drizzle-orm";
import { conversations } from "@/lib/db/schema";
import { recordAudit } from "@/lib/domain/audit/record";
import type { Ctx } from "@/lib/domain/context";
import type { ThreadFacts, ThreadOwner, ThreadStateRow } from "@/lib/domain/conversations/thread-owner";

/**
 * A take or pass through POST /business-agents/thread-control is an audit entry (docs/api-decisions.md
 * "Audit log"): who took a customer's thread from the agent or handed it on. The agent's own handoff
 * (moveThread from a reply) is the agent's behaviour, not an operator's decision, and is not recorded.
 */
export async function recordThreadMove(ctx: Ctx, from: ThreadOwner, moved: ThreadFacts & { stored: ThreadStateRow }): Promise<void> {
  const row = moved.stored;
  const [conversation] = await ctx.db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.projectId, ctx.project.id), eq(conversations.contactId, row.contactId)));
  const where = { channel_id: row.channelId, contact_id: row.contactId, conversation_id: conversation?.id ?? null, from, reason: row.reason };
  const target = { type: "thread_control" as const, id: row.id };
  if (row.metaResult?.action === "take") {
    await recordAudit(ctx, { action: "thread.taken_over", target, details: where });
    return;
  }
  await recordAudit(ctx, { action: "thread.passed", target, details: { ...where, to: row.owner, business_agent_id: row.businessAgentId } });
}
