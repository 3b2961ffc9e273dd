import type { Ctx } from "@/lib/domain/context";
import { loadThread, moveThread, type OwnerFacts, type ThreadOwner } from "@/lib/domain/agents/thread-control";
import type { ConversationRow } from "./row";

/**
 * The conversation's handoff and its thread's owner stay in step (docs/api-decisions.md "Business
 * agents: thread owner on the conversation"). Thread control already turns the handoff on and off
 * when the owner moves (lib/domain/agents/thread-control.ts syncHandoff); this is the other way round,
 * for POST /conversations/{id}/handoff and the automations' handoff step.
 */
export interface HandoffMove {
  owner: ThreadOwner;
  agentId: string | null;
  action: "take" | "pass";
}

/**
 * The move a handoff change implies (pure), or null when the owner already agrees:
 * - on, where the channel routes AGENT: the thread passes to BUSINESS_INBOX (elsewhere inbound already waits
 *   for a person while the handoff is on, and the owner is not on the wire);
 * - off, on a thread the inbox owns: it goes back to its default owner, the channel's agent when the
 *   channel routes AGENT and the agent is ACTIVE, else SERVICE.
 */
export function handoffMove(enabled: boolean, thread: Pick<OwnerFacts, "routesAgent" | "agent"> & { owner: ThreadOwner }): HandoffMove | null {
  if (enabled) return thread.routesAgent && thread.owner !== "BUSINESS_INBOX" ? { owner: "BUSINESS_INBOX", agentId: null, action: "pass" } : null;
  if (thread.owner !== "BUSINESS_INBOX") return null;
  if (thread.routesAgent && thread.agent?.status === "ACTIVE") return { owner: "PROVIDER_AGENT", agentId: thread.agent.id, action: "pass" };
  return { owner: "SERVICE", agentId: null, action: "take" };
}

/**
 * Moves the thread on the conversation's last channel (the one the inbox replies on) as the handoff
 * change implies, in the caller's transaction. moveThread turns the handoff to match through
 * setHandoff, which calls back here: by then the owner agrees, so the call back moves nothing.
 */
export async function syncThreadOwner(ctx: Ctx, conversation: ConversationRow, input: { enabled: boolean; reason?: string | null }): Promise<void> {
  if (!conversation.lastChannelId) return;
  // No channel routes AGENT outside an AGENT project (AGENT is the project's): nothing to read.
  if (input.enabled && ctx.project.routingMode !== "AGENT") return;
  const thread = await loadThread(ctx.db, ctx.project, conversation.lastChannelId, conversation.contactId);
  const move = handoffMove(input.enabled, thread);
  if (!move) return;
  await moveThread(ctx, {
    channelId: conversation.lastChannelId,
    contactId: conversation.contactId,
    owner: move.owner,
    agentId: move.agentId,
    input: { action: move.action, reason: input.enabled ? (input.reason ?? undefined) : "conversation handoff turned off" },
  });
}
