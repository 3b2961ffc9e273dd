import { stepKind, type AutomationStep, type StepKind } from "./definition";
import type { StepProducts, StepRecord, StepStatus } from "./records";
import type { AutomationRunRow, RunError } from "./runs";

/**
 * Step records (automation_runs.step_log) as the engine makes them: each is written by the statement
 * that moves the run past the step or into its wait (runs.ts transition), so a worker that dies
 * between a step and its save leaves no record, repeats the step (its send keyed by run and step) and
 * records it then. A wait's record is finished by whatever ends the wait: its reply, its delay's end,
 * its timeout.
 */

/** A step that ran to its end in one go (or failed): how long it took, by the monotonic clock. */
export function doneRecord(
  type: StepKind,
  timing: { startedAt: Date; endedAt: Date; durationMs: number },
  outcome: { status: Extract<StepStatus, "completed" | "failed">; variables: Record<string, unknown>; products?: StepProducts; error?: RunError },
): StepRecord {
  return {
    type,
    status: outcome.status,
    started_at: timing.startedAt.toISOString(),
    ended_at: timing.endedAt.toISOString(),
    duration_ms: Math.max(0, Math.round(timing.durationMs)),
    variables_after: outcome.variables,
    message_id: outcome.products?.messageId ?? null,
    invocation_id: outcome.products?.invocationId ?? null,
    error: outcome.error ?? null,
  };
}

/** A delay or a wait_reply that now waits. */
export function waitingRecord(type: StepKind, startedAt: Date, variables: Record<string, unknown>): StepRecord {
  return {
    type,
    status: "waiting",
    started_at: startedAt.toISOString(),
    ended_at: null,
    duration_ms: null,
    variables_after: variables,
    message_id: null,
    invocation_id: null,
    error: null,
  };
}

/** The end of the wait the run is at: its waiting record finished (or one made now, for a run that waited before records were kept). */
export function endedWaitRecord(
  run: Pick<AutomationRunRow, "stepIndex" | "stepLog" | "variables">,
  steps: readonly AutomationStep[],
  end: { status: Extract<StepStatus, "completed" | "timed_out">; at: Date; variables?: Record<string, unknown>; messageId?: string },
): StepRecord {
  const waiting = run.stepLog[String(run.stepIndex)];
  const step = steps[run.stepIndex];
  const startedAt = waiting ? new Date(waiting.started_at) : end.at;
  return {
    type: waiting?.type ?? (step ? stepKind(step) : "wait_reply"),
    status: end.status,
    started_at: startedAt.toISOString(),
    ended_at: end.at.toISOString(),
    duration_ms: Math.max(0, end.at.getTime() - startedAt.getTime()),
    variables_after: end.variables ?? run.variables,
    message_id: end.messageId ?? null,
    invocation_id: null,
    error: null,
  };
}
