import { and, eq, sql, type Placeholder } from "drizzle-orm";
import { automationRuns, automations, contacts, messages, organizations, plans, projects, type AutomationRunStatus } from "@/lib/db/schema";
import { preparedPerDb } from "@/lib/ports/db/prepared";
import type { Ctx, SystemCtx } from "@/lib/domain/context";
import type { Db } from "@/lib/ports/db/types";
import type { TypedJobQueue } from "@/lib/jobs/catalog";
import type { StepRecord } from "./records";

/**
 * The run row is the run's whole state (lib/db/schema/automations.ts). Every change is a transition
 * from the state the caller read (status and step_index): a run cancelled by a newer one, or a step a
 * retried job already saved, makes the transition a no-op (false), so a duplicate job cannot move a
 * run twice.
 */
export type AutomationRow = typeof automations.$inferSelect;
export type AutomationRunRow = typeof automationRuns.$inferSelect;
export type RunError = { code: string; message: string };

export const AUTOMATION_EVALUATE_JOB = "automations.evaluate";
export const AUTOMATION_STEP_JOB = "automations.step";
export const AUTOMATION_RESUME_JOB = "automations.resume";

export const ACTIVE_RUN_STATUSES: readonly AutomationRunStatus[] = ["RUNNING", "WAITING"];

/** Where the caller last saw the run. */
export interface RunPosition {
  id: string;
  status: AutomationRunStatus;
  stepIndex: number;
}

type RunChanges = Partial<Pick<AutomationRunRow, "status" | "stepIndex" | "variables" | "error" | "waitUntil" | "endedAt">>;

/** A step's record to write with the transition (records.ts), in the same statement. */
export interface StepEntry {
  index: number;
  record: StepRecord;
}

export async function transition(db: Db, from: RunPosition, changes: RunChanges, now: Date, step?: StepEntry): Promise<boolean> {
  const log = step ? { stepLog: sql`${automationRuns.stepLog} || ${JSON.stringify({ [step.index]: step.record })}::jsonb` } : {};
  const moved = await db
    .update(automationRuns)
    .set({ ...changes, ...log, updatedAt: now })
    .where(and(eq(automationRuns.id, from.id), eq(automationRuns.status, from.status), eq(automationRuns.stepIndex, from.stepIndex)))
    .returning({ id: automationRuns.id });
  return moved.length > 0;
}

export function ended(
  status: Extract<AutomationRunStatus, "COMPLETED" | "FAILED" | "CANCELLED" | "TIMED_OUT">,
  now: Date,
  error: RunError | null = null,
): RunChanges {
  return { status, endedAt: now, waitUntil: null, ...(error ? { error } : {}) };
}

/** The job that ends a delay or times out a wait_reply: pg-boss rows in the database, so it survives restarts. */
export async function scheduleResume(queue: TypedJobQueue, db: Db, run: { id: string; stepIndex: number }, at: Date): Promise<void> {
  await queue.send(AUTOMATION_RESUME_JOB, { runId: run.id, stepIndex: run.stepIndex }, { tx: db, startAfter: at });
}

/** automations.step: the run's steps in a job of their own, with its own retries. */
export async function scheduleStep(queue: TypedJobQueue, runId: string): Promise<void> {
  await queue.send(AUTOMATION_STEP_JOB, { runId });
}

/** The run with its automation (steps as they are now), or null when either is gone. */
export async function loadRun(db: Db, runId: string): Promise<{ run: AutomationRunRow; automation: AutomationRow } | null> {
  const [row] = await db
    .select({ run: automationRuns, automation: automations })
    .from(automationRuns)
    .innerJoin(automations, eq(automations.id, automationRuns.automationId))
    .where(eq(automationRuns.id, runId));
  return row ?? null;
}

/** What running a run's steps reads: the run, its automation, its project (as a Ctx needs it), its contact and the text that started it. */
export interface RunScopeRow {
  run: AutomationRunRow;
  automation: AutomationRow;
  project: typeof projects.$inferSelect;
  org: typeof organizations.$inferSelect;
  plan: typeof plans.$inferSelect;
  contact: { id: string; name: string | null; phone: string | null } | null;
  message: { content: string | null; body: unknown } | null;
}

/**
 * The run and everything its steps read, in ONE statement (it was four: the run, the project, the
 * contact, the trigger message), on every run of a reply. The contact and message may be gone (an
 * erasure): those are left joins.
 */
export async function loadRunScope(db: Db, runId: string): Promise<RunScopeRow | null> {
  const [row] = await runScope(db).execute({ run: runId });
  return (row as RunScopeRow | undefined) ?? null;
}

const runScope = preparedPerDb((db) => runScopeQuery(db, sql.placeholder("run")).prepare("automation_run_scope"));

/** The run scope's statement, for a run id or a placeholder (its plan is tested: tests/automations/run-scope-plan.test.ts). */
export function runScopeQuery(db: Db, run: string | Placeholder) {
  return (
    db
      .select({
        run: automationRuns,
        automation: automations,
        project: projects,
        org: organizations,
        plan: plans,
        contact: { id: contacts.id, name: contacts.name, phone: contacts.phone },
        message: { content: messages.content, body: messages.body },
      })
      .from(automationRuns)
      .innerJoin(automations, eq(automations.id, automationRuns.automationId))
      .innerJoin(projects, eq(projects.id, automationRuns.projectId))
      .innerJoin(organizations, eq(organizations.id, projects.organizationId))
      .innerJoin(plans, eq(plans.id, organizations.planId))
      // On the whole key: contacts' primary key is (project_id, id), so id alone reads every contact.
      .leftJoin(contacts, and(eq(contacts.projectId, automationRuns.projectId), eq(contacts.id, automationRuns.contactId)))
      .leftJoin(messages, eq(messages.id, automationRuns.triggerMessageId))
      .where(eq(automationRuns.id, run))
  );
}

/** A job acting for one project: the project's verbs (sends, flows, functions, handoff) need its Ctx, as the system. */
export async function projectCtx(ctx: SystemCtx, projectId: string): Promise<Ctx | null> {
  const [row] = await ctx.db
    .select({ project: projects, org: organizations, plan: plans })
    .from(projects)
    .innerJoin(organizations, eq(organizations.id, projects.organizationId))
    .innerJoin(plans, eq(plans.id, organizations.planId))
    .where(eq(projects.id, projectId));
  return row ? { ...ctx, ...row } : null;
}
