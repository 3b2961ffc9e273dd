import type { AutomationRun, AutomationStep, AutomationTrigger, MatchMode, StepKind } from "@/lib/client/automations";

/**
 * Automations drawn in words: the trigger as a sentence, each step as one line, a run as where it
 * stands. Pure, so the page and its tests read the same text (docs/spec/decisions.md "Automations").
 */

const SHOWN_KEYWORDS = 5;
const TEXT_PREVIEW = 80;
// decisions.md: wait_reply waits 24 hours unless the step says otherwise.
const DEFAULT_WAIT_HOURS = 24;
// The engine's default for a KEYWORD trigger without match_mode (lib/domain/automations/match.ts).
const DEFAULT_MATCH_MODE: MatchMode = "CONTAINS_WORD";

// Same order as the definition's STEP_KINDS (a runtime import of lib/domain would reach the bundle).
export const STEP_KIND_ORDER: readonly StepKind[] = ["send_reply", "delay", "wait_reply", "pause_replies", "send_flow", "run_function"];

export const STEP_KIND_LABELS: Record<StepKind, string> = {
  send_reply: "Reply",
  delay: "Delay",
  wait_reply: "Wait for reply",
  pause_replies: "Hand off",
  send_flow: "Send flow",
  run_function: "Run function",
};

const MATCH_PHRASES: Record<MatchMode, string> = {
  EXACT: "is exactly",
  CONTAINS: "contains",
  CONTAINS_WORD: "contains the word",
};

const quote = (text: string) => `'${text}'`;

/** "'a', 'b' or 'c'"; past five, "… or 3 more". */
export function orList(items: readonly string[], limit = SHOWN_KEYWORDS): string {
  const quoted = items.map(quote);
  if (quoted.length <= 1) return quoted[0] ?? "";
  if (quoted.length > limit) return `${quoted.slice(0, limit).join(", ")} or ${quoted.length - limit} more`;
  return `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
}

/** One line of text: whitespace collapsed, cut at `max` with an ellipsis. */
export function preview(text: string, max = TEXT_PREVIEW): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/** "When a message contains the word 'hola' or 'hi'", "When a contact writes for the first time", "Any message". */
export function triggerSummary(trigger: AutomationTrigger): string {
  if (trigger.type === "WELCOME") return "When a contact writes for the first time";
  if (trigger.type === "ANY_MESSAGE") return "Any message";
  const keywords = trigger.keywords ?? [];
  return `When a message ${MATCH_PHRASES[trigger.match_mode ?? DEFAULT_MATCH_MODE]} ${keywords.length ? orList(keywords) : "(no keywords)"}`;
}

/** The step's one action (a validated step has exactly one). */
export function kindOf(step: AutomationStep): StepKind {
  return STEP_KIND_ORDER.find((kind) => step[kind] !== undefined) ?? "send_reply";
}

/** "5 minutes", "1 hour", "2 days", "90 minutes". */
export function duration(minutes: number): string {
  const unit = (count: number, name: string) => `${count} ${name}${count === 1 ? "" : "s"}`;
  if (minutes >= 1440 && minutes % 1440 === 0) return unit(minutes / 1440, "day");
  if (minutes >= 60 && minutes % 60 === 0) return unit(minutes / 60, "hour");
  return unit(minutes, "minute");
}

function runFunctionSummary(step: NonNullable<AutomationStep["run_function"]>): string {
  const base = `Run function ${quote(step.function)}`;
  const mode = step.result_mode ?? "side_effect";
  if (mode === "reply") return `${base} → reply${step.reply_field && step.reply_field !== "text" ? ` (field ${quote(step.reply_field)})` : ""}`;
  if (mode === "variables") return `${base} → ${step.variable_name ? `vars.${step.variable_name}` : "variables"}`;
  return base;
}

/** One line per step: "Reply: 'Hi {{contact.name}}' with buttons Yes / No", "Wait 5 minutes", … */
export function stepSummary(step: AutomationStep): string {
  if (step.send_reply) {
    const buttons = step.send_reply.buttons ?? [];
    const text = `Reply: ${quote(preview(step.send_reply.text))}`;
    return buttons.length ? `${text} with buttons ${buttons.map((b) => b.title).join(" / ")}` : text;
  }
  if (step.delay) return `Wait ${duration(step.delay.minutes)}`;
  if (step.wait_reply) {
    const hours = step.wait_reply.timeout_hours ?? DEFAULT_WAIT_HOURS;
    const options = step.wait_reply.options ?? [];
    return `Wait for a reply (${hours} h)${options.length ? `: options ${options.map((o) => o.label).join(" / ")}` : ""}`;
  }
  if (step.pause_replies) return `Hand off to a person${step.pause_replies.reason ? `: ${preview(step.pause_replies.reason, 60)}` : ""}`;
  if (step.send_flow) return `Send flow ${quote(step.send_flow.flow)}`;
  if (step.run_function) return runFunctionSummary(step.run_function);
  return "Unknown step";
}

const RUN_POSITION: Record<AutomationRun["status"], string | null> = {
  RUNNING: "Running step",
  WAITING: "Waiting at step",
  COMPLETED: null,
  FAILED: "Stopped at step",
  CANCELLED: "Stopped at step",
  TIMED_OUT: "Stopped at step",
};

/**
 * Where a run stands, against its automation's steps: "Waiting at step 2: Wait for a reply (24 h)",
 * "Stopped at step 3: …"; a completed run says so. step_index counts from 0, people from 1.
 */
export function runPosition(run: Pick<AutomationRun, "status" | "step_index">, steps: readonly AutomationStep[]): string {
  const lead = RUN_POSITION[run.status];
  if (!lead) return `Completed ${steps.length} ${steps.length === 1 ? "step" : "steps"}`;
  const step = steps[run.step_index];
  return step ? `${lead} ${run.step_index + 1}: ${stepSummary(step)}` : `${lead} ${run.step_index + 1}`;
}
