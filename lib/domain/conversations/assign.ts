import { and, eq } from "drizzle-orm";
import { conversations, memberships, users } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { SvcError } from "@/lib/errors";
import { recordAudit } from "@/lib/domain/audit/record";
import { inboxActorOf } from "./actor-identity";
import { publishInboxEvent } from "@/lib/domain/inbox-live";
import { setHandoff } from "./handoff";
import { getConversationRowOrThrow } from "./read";
import { serializeConversation } from "./serialize";

export interface AssignmentInput {
  /** A member's user id, or null to unassign. */
  assignee_id: string | null;
  /** false: assign without turning the handoff on. */
  handoff?: boolean | undefined;
}

/**
 * POST /conversations/{id}/assignment (docs/api-decisions.md "Team inbox"). Assigning to a member
 * turns the handoff on (a person now answers: automated replies stop) unless `handoff: false`;
 * unassigning leaves the handoff as it is, since nobody said automation should answer again. One
 * transaction: the assignment, the handoff (and the thread owner moving with it) and the audit entry.
 */
export async function assignConversation(ctx: Ctx, id: string, input: AssignmentInput) {
  const assigned = await ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx };
    const conversation = await getConversationRowOrThrow(txCtx, id);
    const assignee = input.assignee_id === null ? null : await memberOrThrow(txCtx, input.assignee_id);
    const by = assignee ? await inboxActorOf(txCtx) : null;
    await tx
      .update(conversations)
      .set({
        assigneeUserId: assignee?.id ?? null,
        assignedAt: assignee ? ctx.now : null,
        assignedByType: by?.type ?? null,
        assignedById: by?.id ?? null,
        assignedByName: by?.name ?? null,
        updatedAt: ctx.now,
      })
      .where(and(eq(conversations.projectId, ctx.project.id), eq(conversations.id, conversation.id)));
    const turnOn = assignee !== null && input.handoff !== false && conversation.handoffStatus !== "HUMAN_ACTIVE";
    if (turnOn) await setHandoff(txCtx, conversation.id, { enabled: true, reason: `Assigned to ${assignee.name ?? assignee.email}` });
    await recordAudit(txCtx, {
      action: "conversation.assigned",
      target: { type: "conversation", id: conversation.id },
      details: { from: conversation.assigneeUserId, to: assignee?.id ?? null, handoff_turned_on: turnOn },
    });
    return serializeConversation(txCtx, await getConversationRowOrThrow(txCtx, conversation.id));
  });
  // After the commit: every teammate's inbox shows the new assignee without a reload.
  publishInboxEvent(ctx.project.id, { type: "conversation.updated", conversation_id: assigned.id });
  return assigned;
}

/** A user of the project's organization; anyone else (unknown, another organization) is a 422 the caller can act on. */
async function memberOrThrow(ctx: Ctx, userId: string) {
  const [row] = await ctx.db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, ctx.org.id), eq(memberships.userId, userId)));
  if (!row) {
    throw new SvcError(
      "unprocessable",
      `No member '${userId}' in this project's organization. Pass the user id of a member (the dashboard's Members page lists them), or null to unassign.`,
      { issues: { assignee_id: ["Not a member of this organization."] } },
    );
  }
  return row;
}
