import { and, eq } from "drizzle-orm";
import { automationEvaluations, automationRuns, messages } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { notFound, SvcError } from "@/lib/errors";
import { automationDetail, messageDetail, type Said } from "./explain-words";
import { notEvaluatedBecause } from "./hook";
import { automationsInOrder } from "./in-order";
import type { EvaluatedAutomation, MessageReason } from "./records";

/**
 * GET /messages/{id}/automations (docs/api-decisions.md "Automations"): why a customer message did or
 * did not start or resume a run, as decided then. A message automations.evaluate judged has its record
 * (automation_evaluations, written in the deciding transaction). One it never judged is explained from
 * the facts stored with it (routing at arrival, handoff at arrival, its type: the rule ingest queued by,
 * hook.ts), and since no automation was judged, each of the project's automations is listed as
 * `skipped` with the message's reason. Reads only: nothing here is on the inbound path.
 */
export async function explainMessage(ctx: Ctx, messageId: string) {
  const message = await messageOf(ctx, messageId);
  const facts = message.arrivalRoutingMode ? { arrivalRoutingMode: message.arrivalRoutingMode, arrivalHandoff: message.arrivalHandoff === true } : null;
  const gate = facts ? notEvaluatedBecause(facts, message.type) : null;
  const [evaluation] = gate
    ? []
    : await ctx.db
        .select()
        .from(automationEvaluations)
        .where(and(eq(automationEvaluations.projectId, ctx.project.id), eq(automationEvaluations.messageId, message.id)));
  const reason: MessageReason | null = gate ?? (evaluation ? (evaluation.reason as MessageReason | null) : facts ? "pending" : "not_recorded");
  const runId = evaluation?.runId ?? null;
  // The decision judged the automations (started, or no_match), or none at all (handoff, a waiting run took it).
  const judgedAny = evaluation !== undefined && reason !== "handoff_on" && reason !== "run_waiting";
  const listed = judgedAny ? evaluation.automations : await unjudged(ctx, reason, runId);
  const winner = listed.find((a) => a.result === "ran") ?? null;
  const said: Said = { routingMode: message.arrivalRoutingMode, messageType: message.type, runId, winner, judged: evaluation?.automations.length ?? 0 };
  return {
    object: "automation_evaluation" as const,
    message_id: message.id,
    conversation_id: message.conversationId,
    channel_id: message.channelId,
    routing_mode: message.arrivalRoutingMode,
    decided_at: (gate ? message.createdAt : evaluation?.decidedAt)?.toISOString() ?? null,
    outcome: evaluation?.outcome ?? "none",
    run_id: runId,
    reason,
    detail: messageDetail(reason, said),
    automations: listed.map((a) => ({ ...a, detail: automationDetail(a, said) })),
  };
}

async function messageOf(ctx: Ctx, messageId: string) {
  const [message] = await ctx.db
    .select({
      id: messages.id,
      direction: messages.direction,
      type: messages.type,
      conversationId: messages.conversationId,
      channelId: messages.channelId,
      arrivalRoutingMode: messages.arrivalRoutingMode,
      arrivalHandoff: messages.arrivalHandoff,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(and(eq(messages.projectId, ctx.project.id), eq(messages.id, messageId)));
  if (!message) throw notFound("message", messageId);
  if (message.direction !== "inbound") {
    throw new SvcError(
      "unprocessable",
      `Message ${messageId} was sent by the business (outbound): automations evaluate customer (inbound) messages only. Ask about the customer message it answered.`,
      { message_id: messageId },
    );
  }
  return message;
}

/**
 * No automation was judged: the project's automations as they are now, each skipped for the message's
 * reason; the one whose waiting run took the message is the one that `ran`.
 */
async function unjudged(ctx: Ctx, reason: MessageReason | null, runId: string | null): Promise<EvaluatedAutomation[]> {
  const rows = await automationsInOrder(ctx.db, ctx.project.id);
  const [resumed] =
    reason === "run_waiting" && runId
      ? await ctx.db
          .select({ automationId: automationRuns.automationId })
          .from(automationRuns)
          .where(and(eq(automationRuns.projectId, ctx.project.id), eq(automationRuns.id, runId)))
      : [];
  return rows.map((row) => ({
    automation_id: row.id,
    key: row.key,
    name: row.name,
    position: row.position,
    active: row.active,
    trigger_type: row.trigger.type,
    result: row.id === resumed?.automationId ? "ran" : "skipped",
    reason,
  }));
}
