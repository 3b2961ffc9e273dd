import { stepKind, type StepKind } from "./definition";
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
 * step_index (where a run waits, failed or was cancelled; null past the last step), and
 * `wait_until`: while WAITING, the delay's end or the wait_reply's timeout.
 */
export function serializeRun(row: AutomationRunRow, steps: AutomationRow["steps"] | null) {
  const step = steps?.[row.stepIndex];
  return {
    object: "automation_run" as const,
    id: row.id,
    automation_id: row.automationId,
    conversation_id: row.conversationId,
    contact_id: row.contactId,
    status: row.status,
    step_index: row.stepIndex,
    step: (step ? stepKind(step) : null) as StepKind | null,
    variables: row.variables,
    error: row.error ?? null,
    wait_until: row.status === "WAITING" ? (row.waitUntil?.toISOString() ?? null) : null,
    started_at: row.startedAt.toISOString(),
    ended_at: row.endedAt?.toISOString() ?? null,
  };
}
