import { and, eq, inArray, lt, ne, or, sql } from "drizzle-orm";
import { automationEvaluations, automationRuns, automations, conversations, messages } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import type { Db } from "@/lib/ports/db/types";
import { newId } from "@/lib/ids";
import { loadInboundMessage, type InboundMessageRow } from "@/lib/domain/messages/inbound-row";
import { automationsInOrder } from "./in-order";
import { matchCandidates, matchOption, type MessageFacts } from "./match";
import type { EvaluatedAutomation, MessageReason } from "./records";
import { ACTIVE_RUN_STATUSES, ended, transition, type AutomationRunRow } from "./runs";
import { endedWaitRecord } from "./step-log";
import { judgeAutomations } from "./verdicts";

/**
 * automations.evaluate: one customer message, at most one run (docs/spec/decisions.md "Automations"):
 * (1) a run WAITING on a wait_reply in this conversation takes it; (2) the first matching KEYWORD
 * automation in config order; (3) WELCOME on the contact's first inbound message; (4) ANY_MESSAGE.
 * A new run cancels the conversation's older active run. The decision and its writes are one
 * transaction holding the conversation's row, so two messages of one conversation are decided one
 * after the other. The decision is recorded in that transaction (automation_evaluations: GET
 * /messages/{id}/automations reads what happened then). Returns the run to go on with (the caller runs
 * its steps): a retried job finds its message handled (the run it started, or the one it answered) and
 * hands that run back while it is still RUNNING, so a worker that died after the decision leaves no run stuck.
 */
type InboundMessage = InboundMessageRow;

export async function evaluateMessage(ctx: SystemCtx, messageId: string): Promise<string | null> {
  const message = await loadInboundMessage(ctx.db, messageId);
  if (!message) return null;
  return ctx.db.transaction(async (tx) => {
    const [conversation] = await tx
      .select({ handoff: conversations.handoffStatus })
      .from(conversations)
      .where(eq(conversations.id, message.conversationId))
      .for("update");
    if (!conversation) return null;
    // Handoff turned on since the message was stored: a person has the conversation now.
    if (conversation.handoff === "HUMAN_ACTIVE") return record(ctx, tx, message, { outcome: "none", reason: "handoff_on" });
    const handled = await alreadyHandled(tx, message);
    if (handled) return handled.status === "RUNNING" ? handled.id : null;
    const candidates = matchCandidates(factsOf(message));
    const answered = await answerWaitingRun(ctx, tx, message, candidates);
    if (answered) return record(ctx, tx, message, { outcome: "resumed", runId: answered, reason: "run_waiting" });
    return startRun(ctx, tx, message, candidates);
  });
}

interface Decision {
  outcome: "started" | "resumed" | "none";
  runId?: string;
  reason: MessageReason | null;
  automations?: EvaluatedAutomation[];
}

/** The decision's record (one insert, in the deciding transaction); a retried job keeps the first. Returns the run to go on with. */
async function record(ctx: SystemCtx, tx: Db, message: InboundMessage, decision: Decision): Promise<string | null> {
  await tx
    .insert(automationEvaluations)
    .values({
      messageId: message.id,
      projectId: message.projectId,
      outcome: decision.outcome,
      runId: decision.runId ?? null,
      reason: decision.reason,
      automations: decision.automations ?? [],
      decidedAt: ctx.now,
    })
    .onConflictDoNothing({ target: automationEvaluations.messageId });
  return decision.runId ?? null;
}

function factsOf(message: InboundMessage): MessageFacts {
  const body = message.body as { text?: unknown; interactive?: MessageFacts["interactive"] };
  const text = typeof body.text === "string" ? body.text : message.content;
  return { type: message.type, text, interactive: body.interactive ?? null };
}

/** The message started a run, or answered a wait_reply (vars.reply_message_id), in an earlier attempt of this job. */
async function alreadyHandled(tx: Db, message: InboundMessage): Promise<Pick<AutomationRunRow, "id" | "status"> | null> {
  const [row] = await tx
    .select({ id: automationRuns.id, status: automationRuns.status })
    .from(automationRuns)
    .where(
      or(
        eq(automationRuns.triggerMessageId, message.id),
        and(eq(automationRuns.conversationId, message.conversationId), sql`${automationRuns.variables}->>'reply_message_id' = ${message.id}`),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** (1): the conversation's run waiting on a wait_reply (not timed out yet) takes the message and runs on. */
async function answerWaitingRun(ctx: SystemCtx, tx: Db, message: InboundMessage, candidates: string[]): Promise<string | null> {
  const waiting = await tx
    .select({ run: automationRuns, steps: automations.steps })
    .from(automationRuns)
    .innerJoin(automations, eq(automations.id, automationRuns.automationId))
    .where(and(eq(automationRuns.conversationId, message.conversationId), eq(automationRuns.status, "WAITING")));
  for (const { run, steps } of waiting) {
    const wait = steps[run.stepIndex]?.wait_reply;
    if (!wait) continue;
    // Its timeout passed before its job ran: it timed out, and the message is a new turn.
    if (run.waitUntil && run.waitUntil <= ctx.now) {
      const step = { index: run.stepIndex, record: endedWaitRecord(run, steps, { status: "timed_out", at: ctx.now }) };
      await transition(tx, run, ended("TIMED_OUT", ctx.now), ctx.now, step);
      continue;
    }
    const option = matchOption(wait.options ?? [], candidates);
    const variables = {
      ...run.variables,
      reply_text: factsOf(message).text ?? candidates[0] ?? "",
      reply_option: option?.id ?? null,
      reply_message_id: message.id,
    };
    const step = { index: run.stepIndex, record: endedWaitRecord(run, steps, { status: "completed", at: ctx.now, variables, messageId: message.id }) };
    const moved = await transition(tx, run, { status: "RUNNING", stepIndex: run.stepIndex + 1, variables, waitUntil: null }, ctx.now, step);
    if (moved) return run.id;
  }
  return null;
}

/**
 * (2)–(4): the automation this message starts, if any; its run replaces the conversation's active one.
 * Every automation is read (not only the active ones) so the record says why each did not run.
 */
async function startRun(ctx: SystemCtx, tx: Db, message: InboundMessage, candidates: string[]): Promise<string | null> {
  const all = await automationsInOrder(tx, message.projectId);
  const firstMessage = all.some((a) => a.active && a.trigger.type === "WELCOME") ? await isFirstInbound(tx, message) : false;
  const { winner, verdicts } = judgeAutomations(all, candidates, firstMessage);
  const judged: EvaluatedAutomation[] = all.map((a, i) => ({
    automation_id: a.id,
    key: a.key,
    name: a.name,
    position: a.position,
    active: a.active,
    trigger_type: a.trigger.type,
    ...verdicts[i]!,
  }));
  if (!winner) return record(ctx, tx, message, { outcome: "none", reason: "no_match", automations: judged });
  const run = await insertRun(ctx, tx, winner.id, message);
  if (!run) return null;
  await tx
    .update(automationRuns)
    .set({ ...ended("CANCELLED", ctx.now), updatedAt: ctx.now })
    .where(
      and(eq(automationRuns.conversationId, message.conversationId), inArray(automationRuns.status, [...ACTIVE_RUN_STATUSES]), ne(automationRuns.id, run.id)),
    );
  return record(ctx, tx, message, { outcome: "started", runId: run.id, reason: null, automations: judged });
}

/** No inbound message of this contact in the project before this one (one conversation per contact and project). */
async function isFirstInbound(tx: Db, message: InboundMessage): Promise<boolean> {
  const [earlier] = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.conversationId, message.conversationId), eq(messages.direction, "inbound"), lt(messages.id, message.id)))
    .limit(1);
  return !earlier;
}

async function insertRun(ctx: SystemCtx, tx: Db, automationId: string, message: InboundMessage): Promise<AutomationRunRow | null> {
  const [run] = await tx
    .insert(automationRuns)
    .values({
      id: newId("automationRun", ctx.now.getTime()),
      projectId: message.projectId,
      automationId,
      conversationId: message.conversationId,
      contactId: message.contactId,
      channelId: message.channelId,
      triggerMessageId: message.id,
      status: "RUNNING",
      stepIndex: 0,
      variables: {},
      startedAt: ctx.now,
      updatedAt: ctx.now,
    })
    .onConflictDoNothing({ target: automationRuns.triggerMessageId })
    .returning();
  return run ?? null;
}
