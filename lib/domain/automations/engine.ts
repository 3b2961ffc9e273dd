import { and, eq, inArray } from "drizzle-orm";
import { automationRuns } from "@/lib/db/schema";
import type { Ctx, SystemCtx } from "@/lib/domain/context";
import type { JobRun } from "@/lib/jobs/define";
import { publicErrorOf } from "@/lib/public-error";
import { stepKind, type StepKind } from "./definition";
import { executeStep } from "./steps";
import {
  AUTOMATION_STEP_JOB,
  ended,
  loadRun,
  loadRunScope,
  scheduleResume,
  scheduleStep,
  transition,
  type AutomationRunRow,
  type RunError,
  type RunScopeRow,
} from "./runs";
import { doneRecord, endedWaitRecord, waitingRecord } from "./step-log";
import { runErrorOf, StepFailure, type StepOutcome, type StepScope } from "./step-types";

/**
 * Runs a run's steps until one waits or the run ends (automations.step), saving step_index, variables
 * and the step's record (step-log.ts) after every step, in one statement. The step's own writes are
 * idempotent (a send is keyed by run and step), so a worker that dies between a step and its save
 * repeats the step without a second message.
 */
export async function advanceRun(ctx: SystemCtx, runId: string): Promise<void> {
  const loaded = await loadRunScope(ctx.db, runId);
  if (!loaded || loaded.run.status !== "RUNNING") return;
  const { automation } = loaded;
  const project: Ctx = { ...ctx, project: loaded.project, org: loaded.org, plan: loaded.plan };
  const facts = factsOf(loaded);
  let run: AutomationRunRow | null = loaded.run;
  // Each pass saves one step or ends the run: bounded by the step count.
  for (let pass = 0; run && pass <= automation.steps.length; pass++) {
    const step = automation.steps[run.stepIndex];
    if (!step) {
      await transition(ctx.db, run, ended("COMPLETED", ctx.ports.clock.now()), ctx.ports.clock.now());
      return;
    }
    const scope: StepScope = { ctx: project, run, automation, ...facts };
    const timing = { type: stepKind(step), startedAt: ctx.ports.clock.now(), began: ctx.ports.clock.monotonicMs() };
    let outcome: StepOutcome;
    try {
      outcome = await executeStep(scope, step);
    } catch (error) {
      const runError = runErrorOf(error);
      if (!runError) throw error;
      await failRun(ctx, run, timing, error, runError);
      return;
    }
    run = await save(project, run, outcome, timing, run.stepIndex + 1 >= automation.steps.length);
  }
}

/** When a step began: its wall-clock start for the record, its monotonic start for the duration. */
interface StepTiming {
  type: StepKind;
  startedAt: Date;
  began: number;
}

/**
 * The steps of a run its evaluation just started (or a reply just resumed), in the evaluating job:
 * one job hop less between the customer's message and the reply. A step that throws for a reason worth
 * retrying hands the run to automations.step, which retries it with its own policy (the decision is
 * committed already; evaluating the message again would find it handled).
 */
export async function continueRun(ctx: SystemCtx, runId: string): Promise<void> {
  try {
    await advanceRun(ctx, runId);
  } catch (error) {
    console.error(`[automations] run ${runId} goes on in ${AUTOMATION_STEP_JOB}:`, error);
    await scheduleStep(ctx.ports.queue, runId);
  }
}

/**
 * Saves a step's outcome and record; returns the run to go on with, or null when it waits, ended, or
 * moved under us. The last step's "next" ends the run in the same statement (COMPLETED, step_index past
 * the last step), as the loop's next pass would have in a second one.
 */
async function save(ctx: Ctx, run: AutomationRunRow, outcome: StepOutcome, timing: StepTiming, last: boolean): Promise<AutomationRunRow | null> {
  const now = ctx.ports.clock.now();
  const at = { startedAt: timing.startedAt, endedAt: now, durationMs: ctx.ports.clock.monotonicMs() - timing.began };
  const index = run.stepIndex;
  if (outcome.kind === "next") {
    const next = { stepIndex: index + 1, variables: outcome.variables ?? run.variables };
    const record = doneRecord(timing.type, at, { status: "completed", variables: next.variables, products: outcome.products });
    const changes = last ? { ...next, ...ended("COMPLETED", now) } : next;
    const moved = await transition(ctx.db, run, changes, now, { index, record });
    return moved && !last ? { ...run, ...next } : null;
  }
  await ctx.db.transaction(async (tx) => {
    if (outcome.kind === "wait") {
      const record = waitingRecord(timing.type, timing.startedAt, run.variables);
      if (await transition(tx, run, { status: "WAITING", waitUntil: outcome.until }, now, { index, record }))
        await scheduleResume(ctx.ports.queue, tx, run, outcome.until);
      return;
    }
    const record = doneRecord(timing.type, at, { status: "completed", variables: run.variables });
    if (await transition(tx, run, ended("COMPLETED", now), now, { index, record })) await outcome.alongside?.(tx);
  });
  return null;
}

/** The run ends FAILED at the step, its record saying why and linking what the step made before it failed. */
async function failRun(ctx: SystemCtx, run: AutomationRunRow, timing: StepTiming, thrown: unknown, error: RunError): Promise<void> {
  const now = ctx.ports.clock.now();
  const at = { startedAt: timing.startedAt, endedAt: now, durationMs: ctx.ports.clock.monotonicMs() - timing.began };
  const products = StepFailure.is(thrown) ? thrown.products : undefined;
  const record = doneRecord(timing.type, at, { status: "failed", variables: run.variables, products, error });
  await transition(ctx.db, run, ended("FAILED", now, error), now, { index: run.stepIndex, record });
}

/** The contact the run talks to and the text of the message that started it (placeholders, the function event). */
function factsOf(loaded: RunScopeRow): Pick<StepScope, "contact" | "message"> {
  const { run, contact, message } = loaded;
  const bodyText = (message?.body as { text?: unknown } | undefined)?.text;
  return {
    contact: contact ?? { id: run.contactId, name: null, phone: null },
    message: { id: run.triggerMessageId, text: typeof bodyText === "string" ? bodyText : (message?.content ?? null) },
  };
}

/** Pg-boss's clock and ours may differ by a little: a resume this close to its time goes ahead. */
const RESUME_SKEW_MS = 1_000;

/**
 * automations.resume: a delay's end (the run goes on with the next step) or a wait_reply's timeout
 * (TIMED_OUT). Only while the run still WAITS at that step: a reply, a cancellation or an earlier
 * run of this job moved it on, and a cancelled run stays cancelled.
 */
export async function resumeRun(ctx: SystemCtx, runId: string, stepIndex: number): Promise<void> {
  const loaded = await loadRun(ctx.db, runId);
  if (!loaded) return;
  const { run, automation } = loaded;
  if (run.status !== "WAITING" || run.stepIndex !== stepIndex) return;
  if (run.waitUntil && run.waitUntil.getTime() - ctx.now.getTime() > RESUME_SKEW_MS) {
    await scheduleResume(ctx.ports.queue, ctx.db, run, run.waitUntil);
    return;
  }
  const now = ctx.ports.clock.now();
  const index = run.stepIndex;
  if (automation.steps[index]?.wait_reply) {
    const record = endedWaitRecord(run, automation.steps, { status: "timed_out", at: now });
    await transition(ctx.db, run, ended("TIMED_OUT", now), now, { index, record });
    return;
  }
  const record = endedWaitRecord(run, automation.steps, { status: "completed", at: now });
  if (await transition(ctx.db, run, { status: "RUNNING", stepIndex: index + 1, waitUntil: null }, now, { index, record })) await advanceRun(ctx, run.id);
}

/**
 * A job's last retry failed on something unexpected: the run ends FAILED rather than staying RUNNING
 * for ever. Its error is what the one boundary lets a tenant see (lib/public-error.ts): a database
 * error's SQL and parameters (the contact's phone, name, text) are logged, never stored on the run.
 */
export async function failRunAfterLastRetry(ctx: SystemCtx, runId: string, job: JobRun, error: unknown): Promise<void> {
  if (job.retryCount < job.retryLimit) return;
  const shown = publicErrorOf(error, `automations run ${runId}`);
  const now = ctx.ports.clock.now();
  await ctx.db
    .update(automationRuns)
    .set({ ...ended("FAILED", now, { code: shown.code, message: `The step could not run: ${shown.message}` }), updatedAt: now })
    .where(and(eq(automationRuns.id, runId), inArray(automationRuns.status, ["RUNNING", "WAITING"])));
}
