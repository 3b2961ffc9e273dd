import type { BadgeTone } from "@/components/ui/badge";
import type { AutomationConsidered, AutomationEvaluation, EvaluationResult } from "@/lib/client/automations-runs";

/**
 * "Why did it (not) fire?" in words (issue 34): the evaluation the API recorded for one inbound
 * message (GET /messages/{id}/automations), each automation's result, and what to do about it.
 * The server words each reason (`detail`); here, its label and the next step the operator can take.
 */

export const RESULT_COPY: Record<EvaluationResult, { label: string; tone: BadgeTone }> = {
  ran: { label: "Ran", tone: "success" },
  matched_not_run: { label: "Matched, did not run", tone: "warning" },
  not_matched: { label: "Did not match", tone: "neutral" },
  skipped: { label: "Not considered", tone: "neutral" },
};

/** What the operator can do about a reason, by its code; null where there is nothing to do. */
const NEXT_STEPS: Record<string, string> = {
  routing_not_flows: "Automations answer only where routing is Flows: set the project's routing on the Overview page, or the channel's on Channels.",
  not_customer_turn: "Only a new customer message starts an automation (not a reaction, an edit, a status or a system message).",
  handoff_on: "A person has this conversation: give it back in the inbox (Give back to automations) for automations to answer again.",
  run_waiting: "A run waiting for this customer's reply took the message. It goes on with its next steps; the other automations wait until it ends.",
  inactive: "It is off: switch it on to let it answer.",
  keyword_not_matched: "Add the words customers use as keywords, or use the match mode “contains the word” or “contains”.",
  not_first_message: "A welcome automation answers a contact's very first message only.",
  earlier_match: "An automation higher in the list ran first: move this one up to give it priority.",
  superseded: "An automation of a kind that comes first ran (keywords before welcome, welcome before any message).",
  pending: "svc is still deciding: this page follows it and updates by itself.",
  not_recorded: "This message came before svc recorded its decisions, so there is nothing to show for it. Newer messages have their explanation.",
};

export function nextStepFor(reason: string | null): string | null {
  return reason ? (NEXT_STEPS[reason] ?? null) : null;
}

/** The one line at the top: which automation ran, or why none did. */
export function evaluationHeadline(evaluation: Pick<AutomationEvaluation, "outcome" | "automations" | "decided_at" | "reason" | "routing_mode">): string {
  if (evaluation.decided_at === null) return "Not decided yet: the message is being evaluated…";
  const ran = evaluation.automations.find((automation) => automation.result === "ran");
  if (evaluation.outcome === "resumed")
    return ran ? `A waiting run of “${ran.name}” took this message and went on` : "A waiting run took this message and went on";
  if (evaluation.outcome === "started") return ran ? `“${ran.name}” ran` : "An automation ran";
  if (evaluation.reason === "not_recorded") return "No decision recorded for this message";
  if (evaluation.reason === "routing_not_flows")
    return `No automation ran: routing is ${evaluation.routing_mode ?? "not Flows"}${evaluation.routing_mode ? ", not Flows" : ""}`;
  if (evaluation.reason === "handoff_on") return "No automation ran: a person has this conversation (handoff on)";
  if (evaluation.reason === "not_customer_turn") return "No automation ran: this is not a new customer message";
  if (evaluation.automations.length === 0) return "No automation ran: the project has no automations";
  return "No automation ran: none matched";
}

/** In priority order (position), as the engine considered them. */
export function inPriorityOrder(automations: readonly AutomationConsidered[]): AutomationConsidered[] {
  return [...automations].sort((a, b) => a.position - b.position);
}
