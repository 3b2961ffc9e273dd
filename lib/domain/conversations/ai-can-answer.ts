import type { RoutingMode } from "@/lib/shared/routing-modes";
import type { ThreadOwner } from "./thread-owner";

/** What the rule needs to know about one conversation (serialize.ts loads it for a whole page). */
export interface AiAnswerFacts {
  handoff: "AI_ACTIVE" | "HUMAN_ACTIVE";
  /** The effective routing of the conversation's last channel (lib/shared/routing-modes.ts), the project's when it has none. */
  routing: RoutingMode;
  /** The thread's owner in force on the last channel where it routes AGENT (thread-owner.ts), else null. */
  owner: ThreadOwner | null;
  /** The project has at least one active automation (no trigger is limited to a channel: any can fire where routing is FLOWS). */
  activeAutomation: boolean;
}

/**
 * The Conversation's `ai_can_answer` (docs/api-decisions.md "Team inbox"): whether something automated
 * answers the customer's next message now. Never while a person has it (handoff on: automated sends
 * are refused). Under AGENT routing only the business agent answers, and only while it owns the thread
 * (taken by your service or passed to the inbox, it does not). Under FLOWS an active automation can
 * start (KEYWORD, WELCOME or ANY_MESSAGE: none is tied to a channel). EXTERNAL hands the message to your
 * webhook and NONE records it: nothing we run answers.
 */
export function aiCanAnswer(facts: AiAnswerFacts): boolean {
  if (facts.handoff !== "AI_ACTIVE") return false;
  switch (facts.routing) {
    case "AGENT":
      return facts.owner === "PROVIDER_AGENT";
    case "FLOWS":
      return facts.activeAutomation;
    case "EXTERNAL":
    case "NONE":
      return false;
  }
}
