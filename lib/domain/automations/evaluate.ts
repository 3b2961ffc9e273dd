import { and, eq, lt, or, sql } from "drizzle-orm";
import { automationEvaluations, automationRuns, automations, conversations, messages } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import type { Db } from "@/lib/ports/db/types";
import { newId } from "@/lib/ids";
import { INBOUND_MESSAGE_COLUMNS, type InboundMessageRow } from "@/lib/domain/messages/inbound-row";
import { builtOnceSql, preparedPerDb } from "@/lib/ports/db/prepared";
import type { automationsInOrder } from "./in-order";
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
  return ctx.db.transaction(async (tx) => {
    // The message, its conversation's handoff (the conversation's row locked), the run it already
    // started or answered, whether a run waits in the conversation, and the project's automations: one statement.
    const [row] = await messageToDecide(tx).execute({ id: messageId });
    if (!row) return null;
    const { handoff, handledId, handledStatus, runWaiting, automationsJson, ...message } = row;
    // Handoff turned on since the message was stored: a person has the conversation now.
    if (handoff === "HUMAN_ACTIVE") return record(ctx, tx, message, { outcome: "none", reason: "handoff_on" });
    // Handled in an earlier attempt of this job: the run it started, or the one it answered.
    if (handledId) return handledStatus === "RUNNING" ? handledId : null;
    const candidates = matchCandidates(factsOf(message));
    const answered = runWaiting ? await answerWaitingRun(ctx, tx, message, candidates) : null;
    if (answered) return record(ctx, tx, message, { outcome: "resumed", runId: answered, reason: "run_waiting" });
    return startRun(ctx, tx, message, candidates, JSON.parse(automationsJson) as InOrderAutomation[]);
  });
}

/**
 * The customer message to decide on (an outbound message's id finds nothing), locking its
 * conversation, with what the decision reads besides (it was four statements in the transaction
 * holding the conversation's row): the run this message started or answered in an earlier attempt
 * (a reply's run keeps vars.reply_message_id), whether a run of the conversation waits, and every
 * automation of the project in config order (automationsInOrder's columns, as JSON text: both
 * databases' drivers return text as it is).
 */
const messageToDecide = preparedPerDb((db) => {
  // A lateral join, so the run's id and status come from one lookup (a scalar subquery per column ran it twice).
  const handled = db
    .select({ id: sql<string>`${automationRuns.id}`.as("handled_id"), status: sql<AutomationRunRow["status"]>`${automationRuns.status}`.as("handled_status") })
    .from(automationRuns)
    .where(
      or(
        eq(automationRuns.triggerMessageId, messages.id),
        and(eq(automationRuns.conversationId, messages.conversationId), sql`${automationRuns.variables}->>'reply_message_id' = ${messages.id}`),
      ),
    )
    .limit(1)
    .as("handled");
  return db
    .select({
      ...INBOUND_MESSAGE_COLUMNS,
      handoff: conversations.handoffStatus,
      handledId: handled.id,
      handledStatus: handled.status,
      runWaiting: sql<boolean>`exists (select 1 from ${automationRuns} r where r.conversation_id = ${messages.conversationId} and r.status = 'WAITING')`,
      automationsJson: sql<string>`(select coalesce(json_agg(json_build_object('id', a.id, 'key', a.key, 'name', a.name, 'position', a.position,
        'active', a.active, 'trigger', a.trigger) order by a.position, a.id), '[]')::text from ${automations} a where a.project_id = ${messages.projectId})`,
    })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .leftJoinLateral(handled, sql`true`)
    .where(and(eq(messages.id, sql.placeholder("id")), eq(messages.direction, "inbound")))
    .for("update", { of: conversations })
    .prepare("automation_message_to_decide");
});

type InOrderAutomation = Awaited<ReturnType<typeof automationsInOrder>>[number];

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

/** (1): the conversation's run waiting on a wait_reply (not timed out yet) takes the message and runs on. */
async function answerWaitingRun(ctx: SystemCtx, tx: Db, message: InboundMessage, candidates: string[]): Promise<string | null> {
  const waiting = await waitingRuns(tx).execute({ conversation: message.conversationId });
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

/** The conversation's runs WAITING (on a wait_reply or a delay), with their automation's steps. */
const waitingRuns = preparedPerDb((db) =>
  db
    .select({ run: automationRuns, steps: automations.steps })
    .from(automationRuns)
    .innerJoin(automations, eq(automations.id, automationRuns.automationId))
    .where(and(eq(automationRuns.conversationId, sql.placeholder("conversation")), eq(automationRuns.status, "WAITING")))
    .prepare("automation_runs_waiting"),
);

/**
 * (2)–(4): the automation this message starts, if any; its run replaces the conversation's active one.
 * Every automation is read (not only the active ones) so the record says why each did not run.
 */
async function startRun(ctx: SystemCtx, tx: Db, message: InboundMessage, candidates: string[], all: InOrderAutomation[]): Promise<string | null> {
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
  const [run] = await startRunStatement(tx, {
    id: newId("automationRun", ctx.now.getTime()),
    project: message.projectId,
    automation: winner.id,
    conversation: message.conversationId,
    contact: message.contactId,
    channel: message.channelId,
    message: message.id,
    now: ctx.now.toISOString(),
    judged: JSON.stringify(judged),
  });
  return run?.id ?? null;
}

/**
 * A decided run in ONE statement: the run (once per message: a retried job's second insert does
 * nothing and nothing else happens), the conversation's older active runs cancelled (ended("CANCELLED")),
 * and the decision's record ("started"). It was three statements inside the transaction holding the
 * conversation's row.
 */
const startRunStatement = builtOnceSql<{ id: string }>("automation_run_start", () => {
  const p = (name: string) => sql.placeholder(name);
  const now = sql`${p("now")}::text::timestamptz`;
  return sql`with "run" as (
      insert into ${automationRuns} ("id", "project_id", "automation_id", "conversation_id", "contact_id", "channel_id", "trigger_message_id", "status", "step_index", "variables", "started_at", "updated_at")
      values (${p("id")}, ${p("project")}, ${p("automation")}, ${p("conversation")}, ${p("contact")}, ${p("channel")}, ${p("message")}, 'RUNNING', 0, '{}'::jsonb, ${now}, ${now})
      on conflict ("trigger_message_id") do nothing
      returning "id"
    ), "cancelled" as (
      update ${automationRuns} set "status" = 'CANCELLED', "ended_at" = ${now}, "wait_until" = null, "updated_at" = ${now}
      where "conversation_id" = ${p("conversation")} and "status" in (${sql.join(
        ACTIVE_RUN_STATUSES.map((status) => sql`${status}`),
        sql`, `,
      )}) and "id" <> all (select "id" from "run") and exists (select 1 from "run")
    ), "recorded" as (
      insert into ${automationEvaluations} ("message_id", "project_id", "outcome", "run_id", "reason", "automations", "decided_at")
      select ${p("message")}, ${p("project")}, 'started', "run"."id", null, ${p("judged")}::text::jsonb, ${now} from "run"
      on conflict ("message_id") do nothing
    )
    select "id" from "run"`;
});

/** No inbound message of this contact in the project before this one (one conversation per contact and project). */
async function isFirstInbound(tx: Db, message: InboundMessage): Promise<boolean> {
  const [earlier] = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.conversationId, message.conversationId), eq(messages.direction, "inbound"), lt(messages.id, message.id)))
    .limit(1);
  return !earlier;
}
