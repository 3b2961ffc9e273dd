import { and, eq } from "drizzle-orm";
import { flowDispatches, flowSubmissions, flowVersions, flows } from "@/lib/db/schema";
import type { ProjectRow, SystemCtx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { ContactRow } from "@/lib/domain/contacts/identity";
import type { ConversationRow } from "@/lib/domain/conversations";
import { emitEvent } from "@/lib/domain/events";
import { newId } from "@/lib/ids";
import { validateSubmission } from "./flow-json/submission";
import type { FlowCompletedPayload } from "./events";
import type { SubmissionError } from "./flow-json/types";

export interface CompletionInput {
  project: ProjectRow;
  channel: ChannelRow;
  contact: ContactRow;
  conversation: ConversationRow;
  /** Our id of the nfm_reply message (it is also an ordinary message.received). */
  messageId: string;
  from: string | null;
  flowToken: string;
  response: Record<string, unknown>;
}

/**
 * An inbound nfm_reply (docs/spec/decisions.md "Flows" → Completion), inside the message's
 * transaction: one submission per flow_token (the unique index makes a provider retry or a second
 * completion a no-op), validated against the field_schema of the version the dispatch sent; a
 * VALIDATED one completes the dispatch and emits flow.completed, a REJECTED one (errors, or an
 * expired dispatch) is kept for the operator and emits nothing. An unknown token is not ours: nothing.
 */
export async function recordFlowCompletion(ctx: SystemCtx, input: CompletionInput): Promise<void> {
  const [found] = await ctx.db
    .select({ dispatch: flowDispatches, version: flowVersions, flow: flows })
    .from(flowDispatches)
    .innerJoin(flows, eq(flows.id, flowDispatches.flowId))
    .innerJoin(flowVersions, and(eq(flowVersions.flowId, flowDispatches.flowId), eq(flowVersions.version, flowDispatches.flowVersion)))
    .where(and(eq(flowDispatches.projectId, input.project.id), eq(flowDispatches.flowToken, input.flowToken)));
  if (!found) return;
  const { dispatch, version, flow } = found;
  const expired = dispatch.status === "EXPIRED" || dispatch.expiresAt.getTime() <= ctx.now.getTime();
  const checked = expired
    ? { submission: withoutToken(input.response), errors: [expiredError()] }
    : validateSubmission(version.fieldSchema, version.flowJson, input.response);
  const status = checked.errors.length ? "REJECTED" : "VALIDATED";
  const id = newId("flowSubmission", ctx.now.getTime());
  const [inserted] = await ctx.db
    .insert(flowSubmissions)
    .values({
      id,
      projectId: input.project.id,
      flowId: dispatch.flowId,
      dispatchId: dispatch.id,
      flowToken: input.flowToken,
      conversationId: input.conversation.id,
      contactId: input.contact.id,
      from: input.from,
      messageId: input.messageId,
      status,
      submission: checked.submission,
      errors: checked.errors.length ? (checked.errors as unknown as Record<string, unknown>[]) : null,
      createdAt: ctx.now,
    })
    .onConflictDoNothing()
    .returning({ id: flowSubmissions.id });
  if (!inserted || status === "REJECTED") return;
  await ctx.db.update(flowDispatches).set({ status: "COMPLETED", completedAt: ctx.now }).where(eq(flowDispatches.id, dispatch.id));
  const payload: FlowCompletedPayload = {
    flow_id: dispatch.flowId,
    flow_token: input.flowToken,
    dispatch_id: dispatch.id,
    submission_id: id,
    submission: checked.submission,
    contact_id: input.contact.id,
    conversation_id: input.conversation.id,
    channel_id: input.channel.id,
    from: input.from,
    contact_reference: input.contact.referenceId,
    customer_reference: input.contact.referenceId,
    agent_id: input.project.id,
    organization_id: input.project.organizationId,
    config_key: flow.configKey,
    locale: dispatch.locale,
    completed_at: ctx.now.toISOString(),
  };
  const eventId = await emitEvent(ctx, {
    project: input.project,
    type: "flow.completed",
    payload: { ...payload },
    at: ctx.now,
    dedupeKey: `flow.completed:${input.flowToken}`,
  });
  if (eventId) await ctx.db.update(flowSubmissions).set({ eventId }).where(eq(flowSubmissions.id, id));
}

function withoutToken(response: Record<string, unknown>): Record<string, unknown> {
  const { flow_token: _token, ...rest } = response;
  return rest;
}

function expiredError(): SubmissionError {
  return { field: "flow_token", code: "DISPATCH_EXPIRED", message: "The dispatch expired before the customer completed the flow (30 days)." };
}
