import type { ProjectRow } from "@/lib/domain/context";
import type { QueuedJob } from "@/lib/domain/shared/reactions";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { ConversationRow } from "@/lib/domain/conversations";
import { arrivalFacts, type ArrivalFacts } from "@/lib/domain/messages/arrival";
import type { MessageReason } from "./records";
import { AUTOMATION_EVALUATE_JOB } from "./runs";

/**
 * Where ingest hands a stored customer message to the automations (docs/spec/decisions.md
 * "Automations (routing FLOWS)"): only under effective routing FLOWS, only for a new customer turn, and
 * only while handoff is off. Edits and revokes never reach here (they change a stored message);
 * reactions, system and unsupported messages are not turns. Button and list replies, and a Flow's
 * completion, are.
 */
const NOT_A_TURN: ReadonlySet<string> = new Set(["edit", "revoke", "reaction", "system", "unsupported"]);

export function isCustomerTurn(messageType: string): boolean {
  return !NOT_A_TURN.has(messageType);
}

/**
 * Why automations do not evaluate a message, or null when they do: the one rule ingest queues by and
 * GET /messages/{id}/automations explains with, from the facts stored with the message.
 */
export function notEvaluatedBecause(
  facts: ArrivalFacts,
  messageType: string,
): Extract<MessageReason, "routing_not_flows" | "not_customer_turn" | "handoff_on"> | null {
  if (facts.arrivalRoutingMode !== "FLOWS") return "routing_not_flows";
  if (!isCustomerTurn(messageType)) return "not_customer_turn";
  if (facts.arrivalHandoff) return "handoff_on";
  return null;
}

export function automationsEvaluate(project: ProjectRow, channel: ChannelRow, conversation: ConversationRow, messageType: string): boolean {
  return notEvaluatedBecause(arrivalFacts(project, channel, conversation), messageType) === null;
}

/** The automations.evaluate job a stored customer message gets, or null (notEvaluatedBecause); ingest writes it with the message. */
export function evaluationJobFor(input: { facts: ArrivalFacts; messageType: string; messageId: string }): QueuedJob | null {
  if (notEvaluatedBecause(input.facts, input.messageType) !== null) return null;
  return { name: AUTOMATION_EVALUATE_JOB, data: { messageId: input.messageId } };
}
