import { errorKind } from "@/lib/error-kind";
import { SvcError } from "@/lib/errors";
import type { Ctx } from "@/lib/domain/context";
import type { Db } from "@/lib/ports/db/types";
import type { StepProducts } from "./records";
import type { AutomationRow, AutomationRunRow, RunError } from "./runs";

/** What a step sees: the project (as the system), the run as last saved, and the facts its placeholders and events read. */
export interface StepScope {
  ctx: Ctx;
  run: AutomationRunRow;
  automation: AutomationRow;
  contact: { id: string; name: string | null; phone: string | null };
  /** The message that started the run. */
  message: { id: string; text: string | null };
}

/** What the engine does after a step: the next step (with the variables now), a wait, or the end of the run. */
export type StepOutcome =
  | { kind: "next"; variables?: Record<string, unknown>; products?: StepProducts }
  | { kind: "wait"; until: Date }
  /** The run is COMPLETED; `alongside` commits with that transition (pause_replies' handoff). */
  | { kind: "complete"; alongside?: (tx: Db) => Promise<void> };

/** A step that cannot succeed: the run ends FAILED with this error (the run row is the truth). */
export class StepFailure extends errorKind("AutomationStepFailure") {
  constructor(
    readonly code: string,
    message: string,
    /** What the step made before it failed (a function's invocation), linked from its record. */
    readonly products: StepProducts = {},
  ) {
    super(message);
    this.name = "StepFailure";
  }
}

/** Errors worth a retry of the job (the database or the limiter away), not a failed run. */
const TRANSIENT: ReadonlySet<string> = new Set(["database_unavailable", "message_rate_limit_unavailable", "internal_error"]);

/** The run's error for a step that threw, or null when the job should retry instead. */
export function runErrorOf(error: unknown): RunError | null {
  if (StepFailure.is(error)) return { code: error.code, message: error.message };
  if (SvcError.is(error) && !TRANSIENT.has(error.code)) return { code: error.code, message: error.message };
  return null;
}

/** The idempotency key of the message a step sends: a repeated step (a retried job) gets its first message back. */
export function stepMessageKey(run: { id: string }, stepIndex: number): string {
  return `${run.id}:step:${stepIndex}`;
}
