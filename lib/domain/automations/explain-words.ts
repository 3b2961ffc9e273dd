import type { EvaluatedAutomation, MessageReason } from "./records";

/**
 * The plain words of GET /messages/{id}/automations (docs/api-decisions.md "Automations"): one
 * sentence per reason code, from what the decision stored. Pure.
 */
export interface Said {
  routingMode: string | null;
  messageType: string;
  runId: string | null;
  /** The automation that ran (or whose waiting run took the message), when one did. */
  winner: Pick<EvaluatedAutomation, "key" | "trigger_type"> | null;
  /** How many automations the decision judged (0: the project had none). */
  judged: number;
}

export function messageDetail(reason: MessageReason | null, said: Said): string {
  const winner = said.winner ? `'${said.winner.key}'` : "An automation";
  switch (reason) {
    case null:
      return `${winner} started run ${said.runId}.`;
    case "run_waiting":
      return `Run ${said.runId} of ${winner} was waiting for a reply in this conversation (wait_reply) and took this message; no trigger was evaluated.`;
    case "routing_not_flows":
      return `The channel routed ${said.routingMode} when the message arrived: automations run only where a channel's effective routing is FLOWS.`;
    case "not_customer_turn":
      return `A ${said.messageType} message is not a new customer turn (reactions, system and unsupported messages are not), so automations do not evaluate it.`;
    case "handoff_on":
      return "Handoff was on (a person has the conversation): automations answer nothing until it is turned off.";
    case "no_match":
      return said.judged
        ? "No active automation's trigger applied to this message, so nothing ran."
        : "The project had no automations when the message was evaluated.";
    case "pending":
      return "Not decided yet: the automations job has not evaluated this message (it is queued, or still retrying).";
    case "not_recorded":
      return "The message arrived before evaluations were recorded: what the automations decided for it is not known.";
  }
}

export function automationDetail(automation: Pick<EvaluatedAutomation, "result" | "reason" | "trigger_type">, said: Said): string {
  const winner = said.winner ? `'${said.winner.key}'` : "another automation";
  switch (automation.reason) {
    case null:
      return `Its trigger applied and it came first: it started run ${said.runId}.`;
    case "inactive":
      return "Switched off (active false): it starts no run.";
    case "keyword_not_matched":
      return "None of its keywords matched the message's text (nor a button's or list row's title or id).";
    case "not_first_message":
      return "WELCOME answers a contact's first message only; this contact had written before.";
    case "earlier_match":
      return `Its trigger applied too, but ${winner} comes before it in config order and ran: one run per message.`;
    case "superseded":
      return `Its trigger applied, but ${winner} (${said.winner?.trigger_type}) ran: a matching KEYWORD comes before WELCOME and ANY_MESSAGE, and WELCOME before ANY_MESSAGE, whatever the order.`;
    case "run_waiting":
      return automation.result === "ran"
        ? `Its run ${said.runId} was waiting for a reply in this conversation and took this message.`
        : `Not evaluated: a run of ${winner} was waiting for a reply in this conversation and took the message.`;
    case "routing_not_flows":
      return `Not evaluated: the channel routed ${said.routingMode}, not FLOWS.`;
    case "not_customer_turn":
      return `Not evaluated: a ${said.messageType} message is not a customer turn.`;
    case "handoff_on":
      return "Not evaluated: handoff was on.";
    case "no_match":
      return "Not evaluated.";
    case "pending":
      return "Not evaluated yet.";
    case "not_recorded":
      return "Not known: the message arrived before evaluations were recorded.";
  }
}
