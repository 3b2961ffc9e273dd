import type { Ctx } from "@/lib/domain/context";
import { SvcError, invalidRequest } from "@/lib/errors";
import { getChannelRowOrThrow } from "@/lib/domain/channels";
import { getContactRowOrThrow } from "@/lib/domain/contacts";
import { moveThread, threadStateRow } from "@/lib/domain/conversations/handoff";
import { loadThread, type ThreadFacts, type ThreadOwner, type ThreadStateRow } from "@/lib/domain/conversations/thread-owner";
import { getAgentRowOrThrow, type AgentRow } from "./agent-row";
import { recordThreadMove } from "./thread-audit";

/**
 * Thread control (docs/spec/decisions.md "Business agents"): POST /business-agents/thread-control
 * takes, passes or reads the thread's owner. The owner itself, its defaults and how it moves with
 * the handoff, belong to the conversation (lib/domain/conversations/thread-owner.ts, handoff.ts).
 */
export interface ThreadControlInput {
  action: "take" | "pass" | "get";
  channel_id: string;
  contact_id: string;
  business_agent_id?: string | undefined;
  thread_id?: string | undefined;
  reason?: string | undefined;
  payload?: Record<string, unknown> | undefined;
}

/** POST /business-agents/thread-control. */
export async function threadControl(ctx: Ctx, input: ThreadControlInput) {
  const channel = await getChannelRowOrThrow(ctx, input.channel_id);
  const contact = await getContactRowOrThrow(ctx, input.contact_id);
  if (input.action === "get") return getThread(ctx, channel.id, contact.id);
  const { action, reason, thread_id, payload } = input;
  const target = action === "take" ? null : input.business_agent_id ? await passTarget(ctx, input.business_agent_id, channel.id) : null;
  const owner: ThreadOwner = action === "take" ? "SERVICE" : target ? "PROVIDER_AGENT" : "BUSINESS_INBOX";
  return ctx.db.transaction(async (tx) => {
    const before = await loadThread(tx, ctx.project, channel.id, contact.id);
    const moved = await moveThread(
      { ...ctx, db: tx },
      { channelId: channel.id, contactId: contact.id, owner, agentId: target?.id ?? null, input: { action, reason, thread_id, payload } },
    );
    await recordThreadMove({ ...ctx, db: tx }, before.owner, moved);
    return serializeThread(moved, ctx.project.id);
  });
}

/** pass to an agent: this project's (else 404), on this channel, ACTIVE (it must be able to answer). */
async function passTarget(ctx: Ctx, agentId: string, channelId: string): Promise<AgentRow> {
  const agent = await getAgentRowOrThrow(ctx, agentId);
  if (agent.channelId !== channelId) {
    throw invalidRequest(`Business agent ${agent.id} is the agent of channel ${agent.channelId}, not of ${channelId}.`, {
      business_agent_id: ["must be the agent of channel_id"],
    });
  }
  if (agent.status !== "ACTIVE") {
    throw new SvcError("conflict", `Business agent ${agent.id} is ${agent.status}: a thread can be passed to an ACTIVE agent only.`, { status: agent.status });
  }
  return agent;
}

/** get: the state in force; the row is written on first use (default owner, not explicit), nothing else changes. */
async function getThread(ctx: Ctx, channelId: string, contactId: string) {
  return serializeThread(await threadStateRow(ctx, channelId, contactId), ctx.project.id);
}

/** The wire state: the stored row with the owner in force (and, for a default state, the agent that owns it). */
function serializeThread(thread: ThreadFacts & { stored: ThreadStateRow }, projectId: string) {
  const row = thread.stored;
  return {
    object: "thread_control_state" as const,
    id: row.id,
    project_id: projectId,
    channel_id: row.channelId,
    contact_id: row.contactId,
    business_agent_id: thread.businessAgentId,
    owner: thread.owner,
    reason: row.reason,
    meta_thread_id: row.metaThreadId,
    meta_result: row.metaResult,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
