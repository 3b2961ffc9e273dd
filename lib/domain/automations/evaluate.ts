import { and, asc, eq, inArray, lt, ne, or, sql } from "drizzle-orm";
import { automationRuns, automations, conversations, messages } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import type { Db } from "@/lib/ports/db/types";
import { newId } from "@/lib/ids";
import { loadInboundMessage, type InboundMessageRow } from "@/lib/domain/messages/inbound-row";
import { matchCandidates, matchOption, pickAutomation, type MessageFacts } from "./match";
import { ACTIVE_RUN_STATUSES, ended, transition, type AutomationRow, type AutomationRunRow } from "./runs";

/**
 * automations.evaluate: one customer message, at most one run (docs/spec/decisions.md "Automations"):
 * (1) a run WAITING on a wait_reply in this conversation takes it; (2) the first matching KEYWORD
 * automation in config order; (3) WELCOME on the contact's first inbound message; (4) ANY_MESSAGE.
 * A new run cancels the conversation's older active run. The decision and its writes are one
 * transaction holding the conversation's row, so two messages of one conversation are decided one
 * after the other. Returns the run to go on with (the caller runs its steps): a retried job finds its
 * message handled (the run it started, or the one it answered) and hands that run back while it is
 * still RUNNING, so a worker that died after the decision leaves no run stuck.
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
    // Handoff turned on since the message was stored: a person has the conversation now.
    if (!conversation || conversation.handoff === "HUMAN_ACTIVE") return null;
    const handled = await alreadyHandled(tx, message);
    if (handled) return handled.status === "RUNNING" ? handled.id : null;
    const candidates = matchCandidates(factsOf(message));
    return (await answerWaitingRun(ctx, tx, message, candidates)) ?? (await startRun(ctx, tx, message, candidates));
  });
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
      await transition(tx, run, ended("TIMED_OUT", ctx.now), ctx.now);
      continue;
    }
    const option = matchOption(wait.options ?? [], candidates);
    const variables = {
      ...run.variables,
      reply_text: factsOf(message).text ?? candidates[0] ?? "",
      reply_option: option?.id ?? null,
      reply_message_id: message.id,
    };
    const moved = await transition(tx, run, { status: "RUNNING", stepIndex: run.stepIndex + 1, variables, waitUntil: null }, ctx.now);
    if (moved) return run.id;
  }
  return null;
}

/** (2)–(4): the automation this message starts, if any; its run replaces the conversation's active one. */
async function startRun(ctx: SystemCtx, tx: Db, message: InboundMessage, candidates: string[]): Promise<string | null> {
  const active = await tx
    .select()
    .from(automations)
    .where(and(eq(automations.projectId, message.projectId), eq(automations.active, true)))
    .orderBy(asc(automations.position), asc(automations.id));
  if (active.length === 0) return null;
  const firstMessage = active.some((a) => a.trigger.type === "WELCOME") ? await isFirstInbound(tx, message) : false;
  const automation = pickAutomation(active, candidates, firstMessage);
  if (!automation) return null;
  const run = await insertRun(ctx, tx, automation, message);
  if (!run) return null;
  await tx
    .update(automationRuns)
    .set({ ...ended("CANCELLED", ctx.now), updatedAt: ctx.now })
    .where(
      and(eq(automationRuns.conversationId, message.conversationId), inArray(automationRuns.status, [...ACTIVE_RUN_STATUSES]), ne(automationRuns.id, run.id)),
    );
  return run.id;
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

async function insertRun(ctx: SystemCtx, tx: Db, automation: AutomationRow, message: InboundMessage): Promise<AutomationRunRow | null> {
  const [run] = await tx
    .insert(automationRuns)
    .values({
      id: newId("automationRun", ctx.now.getTime()),
      projectId: message.projectId,
      automationId: automation.id,
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
