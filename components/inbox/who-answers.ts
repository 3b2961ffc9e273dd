import type { BadgeTone } from "@/components/ui/badge";
import type { Automation } from "@/lib/client/automations";
import type { Channel } from "@/lib/client/channels";
import type { Conversation } from "@/lib/client/inbox";
import type { RoutingMode } from "@/lib/client/projects";
import { ROUTING_SENTENCES, effectiveRoutingOfWire } from "@/lib/shared/routing-modes";

/**
 * Who answers the customer's next message in a conversation, as the inbox badge says it. "AI active"
 * only when something of svc can answer: the business agent that owns the thread, or an active
 * automation whose trigger can match a further message. The wire's handoff status (AI_ACTIVE) only
 * means "no person took over", not that anything answers (issue 32 item 14).
 */
type Answerer = "agent" | "automation" | "keywords" | "webhook" | "person" | "nobody";

export interface WhoAnswers {
  answerer: Answerer;
  label: string;
  tone: BadgeTone;
  /** One sentence for the tooltip: why, and what to change when nothing answers. */
  why: string;
}

export interface AnsweringFacts {
  projectRouting: RoutingMode;
  hasWebhook: boolean;
  /** The project's automations; undefined while unknown (then a FLOWS conversation has no answer yet). */
  automations: readonly Pick<Automation, "active" | "trigger">[] | undefined;
}

type ConversationFacts = {
  handoff: Pick<Conversation["handoff"], "status">;
  thread_owner?: Conversation["thread_owner"];
  /** The server's verdict (issue 37 item 9): something automated can answer now. Absent from older servers. */
  ai_can_answer?: boolean;
};
type ChannelFacts = Pick<Channel, "is_sandbox" | "routing_mode">;

const PERSON: WhoAnswers = {
  answerer: "person",
  label: "Human active",
  tone: "warning",
  why: "A teammate answers from this inbox: automation and the agent stay quiet.",
};

const AUTOMATED: WhoAnswers = {
  answerer: "automation",
  label: "AI active",
  tone: "accent",
  why: "Something automated answers this conversation: the channel's business agent or an active automation.",
};

const AUTOMATED_ANSWERERS: ReadonlySet<Answerer> = new Set(["agent", "automation", "keywords"]);

/**
 * null while a fact it needs is still loading. "AI active" shows only when the server says something
 * automated can answer (ai_can_answer); the facts below then only say which thing, or who else.
 */
export function whoAnswers(facts: AnsweringFacts | undefined, conversation: ConversationFacts, channel: ChannelFacts | null | undefined): WhoAnswers | null {
  const judged = judge(facts, conversation, channel);
  const verdict = conversation.ai_can_answer;
  if (verdict === undefined || judged?.answerer === "person") return judged;
  if (verdict) return judged && AUTOMATED_ANSWERERS.has(judged.answerer) ? judged : AUTOMATED;
  if (!judged || !AUTOMATED_ANSWERERS.has(judged.answerer)) return judged;
  return facts ? webhookAnswers(facts.hasWebhook) : null;
}

function judge(facts: AnsweringFacts | undefined, conversation: ConversationFacts, channel: ChannelFacts | null | undefined): WhoAnswers | null {
  if (conversation.handoff.status === "HUMAN_ACTIVE" || conversation.thread_owner === "BUSINESS_INBOX") return PERSON;
  if (!facts) return null;
  // The server's rule (lib/domain/events inboundRoute routes by the same function).
  const route = effectiveRoutingOfWire(facts.projectRouting, channel);
  if (route === "AGENT") return agentAnswers(conversation, facts.hasWebhook);
  if (route === "FLOWS") return automationAnswers(facts.automations);
  if (route === "EXTERNAL") return webhookAnswers(facts.hasWebhook);
  return {
    answerer: "nobody",
    label: "Not answered",
    tone: "warning",
    why: `Routing is NONE on this channel. ${ROUTING_SENTENCES.NONE}`,
  };
}

function agentAnswers(conversation: ConversationFacts, hasWebhook: boolean): WhoAnswers {
  // The server names the agent as owner only while the channel's agent is ACTIVE (resolveOwner).
  if (conversation.thread_owner === "PROVIDER_AGENT") {
    return { answerer: "agent", label: "AI active", tone: "accent", why: "The business agent answers this conversation." };
  }
  const webhook = webhookAnswers(hasWebhook);
  return {
    ...webhook,
    why: `The business agent does not own this thread (no ACTIVE agent on the channel, or your service took it): ${webhook.why}`,
  };
}

function automationAnswers(automations: AnsweringFacts["automations"]): WhoAnswers | null {
  if (!automations) return null;
  const active = automations.filter((automation) => automation.active);
  if (active.some((automation) => automation.trigger.type === "ANY_MESSAGE")) {
    return { answerer: "automation", label: "AI active", tone: "accent", why: "An active automation answers every message (an any-message trigger)." };
  }
  if (active.some((automation) => automation.trigger.type === "KEYWORD")) {
    return {
      answerer: "keywords",
      label: "AI on keywords",
      tone: "neutral",
      why: "Active automations answer messages with their keywords only; any other message is recorded and not answered.",
    };
  }
  // A welcome trigger fires on a contact's first message only, which this conversation has had.
  return {
    answerer: "nobody",
    label: "Not answered",
    tone: "warning",
    why: "Routing is FLOWS but no active automation matches a further message: turn one on (Automations) or take the conversation over.",
  };
}

function webhookAnswers(hasWebhook: boolean): WhoAnswers {
  return hasWebhook
    ? { answerer: "webhook", label: "Your webhook", tone: "neutral", why: "Messages are forwarded to your webhook: your service answers, svc does not." }
    : {
        answerer: "nobody",
        label: "Not answered",
        tone: "warning",
        why: "Routing is EXTERNAL but the project has no webhook URL: messages are recorded and reach nobody. Set one on Webhooks.",
      };
}
