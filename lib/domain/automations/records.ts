import type { AutomationTrigger, StepKind } from "./definition";

/**
 * What the automations record as they decide and run (docs/api-decisions.md "Automations"): the
 * judgement of each automation for one message (automation_evaluations.automations), and what each
 * step of a run did (automation_runs.step_log). Stored in their wire names, so a read is a copy.
 */

/** An automation as one message's evaluation judged it. */
export const AUTOMATION_RESULTS = ["ran", "matched_not_run", "not_matched", "skipped"] as const;
export type AutomationResult = (typeof AUTOMATION_RESULTS)[number];

/**
 * Why: the message's own reasons (nothing was judged: every automation `skipped`), then an
 * automation's own. `ran` has none, except a run resumed by its reply (`run_waiting`).
 */
export const MESSAGE_REASONS = ["routing_not_flows", "not_customer_turn", "handoff_on", "run_waiting", "no_match", "pending", "not_recorded"] as const;
export const AUTOMATION_REASONS = ["inactive", "keyword_not_matched", "not_first_message", "earlier_match", "superseded"] as const;
export type MessageReason = (typeof MESSAGE_REASONS)[number];
export type AutomationReason = (typeof AUTOMATION_REASONS)[number];

export interface EvaluatedAutomation {
  automation_id: string;
  key: string;
  name: string;
  position: number;
  active: boolean;
  trigger_type: AutomationTrigger["type"];
  result: AutomationResult;
  reason: AutomationReason | MessageReason | null;
}

/** A step's record: `waiting` until its delay ends or its reply comes; a run's end at a step it had not saved is read from the run (serialize.ts). */
export const STEP_STATUSES = ["running", "waiting", "completed", "failed", "timed_out", "cancelled"] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

export interface StepRecord {
  type: StepKind;
  status: StepStatus;
  started_at: string;
  ended_at: string | null;
  duration_ms: number | null;
  /** The run's variables once the step was done (as they were when it began, while it waits). */
  variables_after: Record<string, unknown>;
  /** The message the step sent; for a wait_reply, the customer's reply it took. */
  message_id: string | null;
  /** A run_function step's function invocation. */
  invocation_id: string | null;
  error: { code: string; message: string } | null;
}

/** By step index ("0", "1", ...): merged with `||`, so saving a step again replaces its record. */
export type StepLog = Record<string, StepRecord>;

/** What a step produced, linked from its record. */
export interface StepProducts {
  messageId?: string | null;
  invocationId?: string | null;
}
