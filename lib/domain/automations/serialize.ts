import { stepKind, type StepKind } from "./definition";
import type { StepRecord, StepStatus } from "./records";
import type { AutomationRow, AutomationRunRow } from "./runs";

/** docs/spec/decisions.md "Automations (routing FLOWS)", plus `position` (docs/api-decisions.md "Automations"). */
export function serializeAutomation(row: AutomationRow) {
  return {
    object: "automation" as const,
    id: row.id,
    key: row.key,
    name: row.name,
    trigger: row.trigger,
    steps: row.steps,
    active: row.active,
    position: row.position,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * The spec's run, plus (docs/api-decisions.md "Automations") `step`: the kind of the step at
 * step_index (where a run waits, failed or was cancelled; null past the last step), `wait_until`:
 * while WAITING, the delay's end or the wait_reply's timeout, `trigger_message_id`: the customer
 * message that started it, and `steps`: what each step did (serializeSteps).
 */
export function serializeRun(row: AutomationRunRow, steps: AutomationRow["steps"] | null) {
  const step = steps?.[row.stepIndex];
  return {
    object: "automation_run" as const,
    id: row.id,
    automation_id: row.automationId,
    conversation_id: row.conversationId,
    contact_id: row.contactId,
    trigger_message_id: row.triggerMessageId,
    status: row.status,
    step_index: row.stepIndex,
    step: (step ? stepKind(step) : null) as StepKind | null,
    variables: row.variables,
    error: row.error ?? null,
    wait_until: row.status === "WAITING" ? (row.waitUntil?.toISOString() ?? null) : null,
    steps: serializeSteps(row, steps ?? []),
    started_at: row.startedAt.toISOString(),
    ended_at: row.endedAt?.toISOString() ?? null,
  };
}

export type SerializedStep = Omit<StepRecord, "type"> & { index: number; type: StepKind | null };

const ENDED_AS: Partial<Record<AutomationRunRow["status"], StepStatus>> = { FAILED: "failed", CANCELLED: "cancelled", TIMED_OUT: "timed_out" };

/**
 * The step records in step order. The step the run is at is completed from the run where no statement
 * of the engine wrote its end: a run cancelled by a newer one, or failed after its job's last retry,
 * ends at that step (its status and error are the run's); a RUNNING run's next step is `running`.
 */
function serializeSteps(row: AutomationRunRow, steps: AutomationRow["steps"]): SerializedStep[] {
  const records: SerializedStep[] = Object.entries(row.stepLog ?? {})
    .map(([index, record]) => ({ ...record, index: Number(index) }))
    .filter((record) => Number.isInteger(record.index))
    .sort((a, b) => a.index - b.index);
  const index = row.stepIndex;
  const current = records.find((record) => record.index === index);
  const open = !current || current.status === "waiting" || current.status === "running";
  const endedAs = ENDED_AS[row.status];
  if (!open || (!current && index >= steps.length)) return records;
  if (row.status === "COMPLETED" || (row.status === "WAITING" && current)) return records;
  const startedAt = current?.started_at ?? records.find((record) => record.index === index - 1)?.ended_at ?? row.startedAt.toISOString();
  const endedAt = endedAs ? (row.endedAt?.toISOString() ?? null) : null;
  const status: StepStatus = endedAs ?? (row.status === "WAITING" ? "waiting" : "running");
  const step = steps[index];
  const made: SerializedStep = {
    index,
    type: current?.type ?? (step ? stepKind(step) : null),
    status,
    started_at: startedAt,
    ended_at: endedAt,
    duration_ms: endedAt ? Math.max(0, Date.parse(endedAt) - Date.parse(startedAt)) : null,
    variables_after: current?.variables_after ?? row.variables,
    message_id: current?.message_id ?? null,
    invocation_id: current?.invocation_id ?? null,
    error: row.status === "FAILED" ? (row.error ?? null) : null,
  };
  return [...records.filter((record) => record.index !== index), made].sort((a, b) => a.index - b.index);
}
