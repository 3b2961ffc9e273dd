import type { AutomationTrigger } from "./definition";
import { pickAutomation, triggerMatches, type Candidate } from "./match";
import type { AutomationReason, AutomationResult } from "./records";

/**
 * Each automation's part in one new customer turn's decision (docs/api-decisions.md "Automations":
 * why did it (not) fire), pure. The winner is pickAutomation's, the rule the engine runs by; the
 * others are told apart from it: switched off, their trigger did not apply, or it applied and lost to
 * one earlier in config order (`earlier_match`) or to a trigger type that comes first whatever the
 * order (`superseded`: a matching KEYWORD beats WELCOME and ANY_MESSAGE, WELCOME beats ANY_MESSAGE).
 */
export interface Verdict {
  result: AutomationResult;
  reason: AutomationReason | null;
}

export interface JudgedCandidate extends Candidate {
  active: boolean;
}

const RANK: Record<AutomationTrigger["type"], number> = { KEYWORD: 0, WELCOME: 1, ANY_MESSAGE: 2 };

/** `automations` are all of the project's, in config order; `isFirstMessage` matters only to WELCOME. */
export function judgeAutomations<T extends JudgedCandidate>(
  automations: readonly T[],
  candidates: readonly string[],
  isFirstMessage: boolean,
): { winner: T | null; verdicts: Verdict[] } {
  const winner = pickAutomation(
    automations.filter((a) => a.active),
    candidates,
    isFirstMessage,
  );
  const verdicts = automations.map((automation): Verdict => {
    if (!automation.active) return { result: "skipped", reason: "inactive" };
    if (automation === winner) return { result: "ran", reason: null };
    const { type } = automation.trigger;
    if (type === "KEYWORD" && !triggerMatches(automation.trigger, candidates)) return { result: "not_matched", reason: "keyword_not_matched" };
    if (type === "WELCOME" && !isFirstMessage) return { result: "not_matched", reason: "not_first_message" };
    // Its trigger applied, so pickAutomation chose one: of a type that comes first, or the same type earlier.
    return { result: "matched_not_run", reason: RANK[winner!.trigger.type] < RANK[type] ? "superseded" : "earlier_match" };
  });
  return { winner, verdicts };
}
