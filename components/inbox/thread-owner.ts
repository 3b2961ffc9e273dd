import type { BadgeTone } from "@/components/ui/badge";
import type { ChannelAgent, ThreadOwner } from "@/lib/client/threads";

/**
 * Who owns the open conversation's thread (docs/spec/decisions.md "Business agents", thread control)
 * as the inbox shows it. thread_owner is null when the project does not route AGENT: then nothing of
 * this shows, the handoff switch says it all.
 */
export const THREAD_OWNER_LABELS: Record<ThreadOwner, string> = {
  PROVIDER_AGENT: "Agent",
  SERVICE: "Your service",
  BUSINESS_INBOX: "Inbox",
};

const TONES: Record<ThreadOwner, BadgeTone> = { PROVIDER_AGENT: "accent", SERVICE: "neutral", BUSINESS_INBOX: "warning" };

export function threadOwnerBadge(owner: ThreadOwner | null | undefined): { label: string; tone: BadgeTone; owner: ThreadOwner } | null {
  return owner ? { label: THREAD_OWNER_LABELS[owner], tone: TONES[owner], owner } : null;
}

export interface ThreadActions {
  /** "Take over": pass to BUSINESS_INBOX, the operator answers from here. */
  takeOver: boolean;
  /** "Give back to agent": the id of the channel's ACTIVE agent to pass to, or null (no button). */
  giveBackTo: string | null;
}

const NONE: ThreadActions = { takeOver: false, giveBackTo: null };

/**
 * The buttons for a thread: none for a viewer or outside AGENT routing; Take over unless the inbox
 * owns it already; Give back only to an ACTIVE agent of the conversation's channel (the API refuses a
 * pass to any other) that does not own it already.
 */
export function threadActions(input: {
  owner: ThreadOwner | null | undefined;
  channelId: string | null;
  agent: ChannelAgent | null | undefined;
  canWrite: boolean;
}): ThreadActions {
  if (!input.owner || !input.canWrite || !input.channelId) return NONE;
  const agentCanTake = input.agent && input.agent.status === "ACTIVE" && input.agent.channel_id === input.channelId;
  return {
    takeOver: input.owner !== "BUSINESS_INBOX",
    giveBackTo: agentCanTake && input.owner !== "PROVIDER_AGENT" ? input.agent!.id : null,
  };
}
