import { and, eq } from "drizzle-orm";
import { businessAgents, channels, conversations, threadControlStates, type THREAD_OWNERS } from "@/lib/db/schema";
import type { Ctx, ProjectRow } from "@/lib/domain/context";
import type { Db } from "@/lib/ports/db/types";
import { newId } from "@/lib/ids";
import { SvcError, invalidRequest } from "@/lib/errors";
import { getChannelRowOrThrow } from "@/lib/domain/channels";
import { getContactRowOrThrow } from "@/lib/domain/contacts";
import { ensureConversation, setHandoff } from "@/lib/domain/conversations";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { effectiveRouting } from "@/lib/shared/routing-modes";
import { getAgentRowOrThrow, type AgentRow } from "./agent-row";
import { recordThreadMove } from "./thread-audit";

/**
 * Thread control (docs/spec/decisions.md "Business agents"): who owns a customer's thread on a
 * channel, one state per (project, channel, contact). Our decisions (docs/api-decisions.md
 * "Business agents: thread control"):
 * - A state never taken or passed follows the default: PROVIDER_AGENT while the channel routes AGENT
 *   (its effective routing: lib/shared/routing-modes.ts) and its agent (of this project) is ACTIVE,
 *   else SERVICE. `get` writes the row on first
 *   use (so the state has an id), but the row keeps following the default until a take or a pass:
 *   a look at the thread never pins it. `meta_result.action` tells an explicit state from a default one.
 * - An agent that is not ACTIVE cannot own a thread: a thread passed to it follows SERVICE until the
 *   agent is ACTIVE again; the stored pass is kept. A pass holds whatever the project's routing.
 * - pass without business_agent_id → BUSINESS_INBOX and the conversation's handoff on; leaving
 *   BUSINESS_INBOX (take, or pass to the agent) turns the handoff off again.
 */
export type ThreadOwner = (typeof THREAD_OWNERS)[number];
export type ThreadStateRow = typeof threadControlStates.$inferSelect;

export interface OwnerFacts {
  /** The channel's effective routing is AGENT. */
  routesAgent: boolean;
  /** The channel's agent of this project, if any. */
  agent: Pick<AgentRow, "id" | "status"> | null;
  stored: Pick<ThreadStateRow, "owner" | "businessAgentId" | "metaResult"> | null;
}

export function isExplicit(stored: OwnerFacts["stored"]): boolean {
  return !!stored && typeof stored.metaResult?.action === "string";
}

/**
 * The owner in force (pure): the explicit state, else the default; an agent that is not ACTIVE owns
 * nothing. An explicit pass to the agent holds whatever the project's routing (the contract: pass →
 * PROVIDER_AGENT when business_agent_id is given); routing only decides where inbound goes.
 */
export function resolveOwner(facts: OwnerFacts): { owner: ThreadOwner; businessAgentId: string | null } {
  const agentActive = facts.agent?.status === "ACTIVE";
  if (!isExplicit(facts.stored))
    return facts.routesAgent && agentActive ? { owner: "PROVIDER_AGENT", businessAgentId: facts.agent!.id } : { owner: "SERVICE", businessAgentId: null };
  const stored = facts.stored!;
  if (stored.owner === "PROVIDER_AGENT" && !agentActive) return { owner: "SERVICE", businessAgentId: stored.businessAgentId };
  return { owner: stored.owner, businessAgentId: stored.businessAgentId };
}

async function storedState(db: Db, projectId: string, channelId: string, contactId: string): Promise<ThreadStateRow | null> {
  const [row] = await db
    .select()
    .from(threadControlStates)
    .where(and(eq(threadControlStates.projectId, projectId), eq(threadControlStates.channelId, channelId), eq(threadControlStates.contactId, contactId)));
  return row ?? null;
}

async function channelAgent(db: Db, projectId: string, channelId: string): Promise<AgentRow | null> {
  const [row] = await db
    .select()
    .from(businessAgents)
    .where(and(eq(businessAgents.projectId, projectId), eq(businessAgents.channelId, channelId)))
    .limit(1);
  return row ?? null;
}

export interface ThreadFacts extends OwnerFacts {
  agent: AgentRow | null;
  stored: ThreadStateRow | null;
  owner: ThreadOwner;
  businessAgentId: string | null;
}

/** The thread's facts and its owner in force, read on `db` (ingest passes its transaction). */
export async function loadThread(db: Db, project: Pick<ProjectRow, "id" | "routingMode">, channelId: string, contactId: string): Promise<ThreadFacts> {
  // One after the other: `db` may be a transaction, one connection.
  const stored = await storedState(db, project.id, channelId, contactId);
  const agent = await channelAgent(db, project.id, channelId);
  const [channel] = await db.select({ isSandbox: channels.isSandbox, routingMode: channels.routingMode }).from(channels).where(eq(channels.id, channelId));
  const facts = { routesAgent: routesAgent(project, channel), agent, stored };
  return { ...facts, ...resolveOwner(facts) };
}

/** Whether inbound on the channel goes to the agent at all; an unknown channel routes nowhere. */
function routesAgent(project: Pick<ProjectRow, "routingMode">, channel: Pick<ChannelRow, "isSandbox" | "routingMode"> | undefined): boolean {
  return !!channel && effectiveRouting(project.routingMode, channel) === "AGENT";
}

/** For inbound routing: the owner where the channel routes AGENT, undefined (no query) anywhere else. */
export async function routingOwner(db: Db, project: ProjectRow, channel: ChannelRow, contactId: string): Promise<ThreadOwner | undefined> {
  if (!routesAgent(project, channel)) return undefined;
  return (await loadThread(db, project, channel.id, contactId)).owner;
}

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
  const target = input.action === "take" ? null : input.business_agent_id ? await passTarget(ctx, input.business_agent_id, channel.id) : null;
  const owner: ThreadOwner = input.action === "take" ? "SERVICE" : target ? "PROVIDER_AGENT" : "BUSINESS_INBOX";
  return ctx.db.transaction(async (tx) => {
    const before = await loadThread(tx, ctx.project, channel.id, contact.id);
    const moved = await moveThread({ ...ctx, db: tx }, { channelId: channel.id, contactId: contact.id, owner, agentId: target?.id ?? null, input });
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

interface Move {
  channelId: string;
  contactId: string;
  owner: ThreadOwner;
  agentId: string | null;
  input: Pick<ThreadControlInput, "action" | "reason" | "thread_id" | "payload">;
}

/**
 * take / pass inside the caller's transaction: the state row (held FOR UPDATE while the owner
 * changes) and the conversation's handoff, together. Also what the agent's own handoff uses.
 */
export async function moveThread(ctx: Ctx, move: Move): Promise<ThreadFacts & { stored: ThreadStateRow }> {
  const before = await loadThreadForUpdate(ctx, move.channelId, move.contactId);
  const metaResult: Record<string, unknown> = { action: move.input.action, success: true, ...(move.input.payload ? { payload: move.input.payload } : {}) };
  const values = {
    owner: move.owner,
    businessAgentId: move.agentId,
    reason: move.input.reason ?? null,
    metaResult,
    updatedAt: ctx.now,
    ...(move.input.thread_id !== undefined ? { metaThreadId: move.input.thread_id } : {}),
  };
  const [row] = await ctx.db
    .insert(threadControlStates)
    .values({
      id: newId("threadControl", ctx.now.getTime()),
      projectId: ctx.project.id,
      channelId: move.channelId,
      contactId: move.contactId,
      createdAt: ctx.now,
      ...values,
    })
    .onConflictDoUpdate({ target: [threadControlStates.projectId, threadControlStates.channelId, threadControlStates.contactId], set: values })
    .returning();
  await syncHandoff(ctx, move, before.owner);
  const facts = { routesAgent: before.routesAgent, agent: before.agent, stored: row! };
  return { ...facts, ...resolveOwner(facts) };
}

async function loadThreadForUpdate(ctx: Ctx, channelId: string, contactId: string): Promise<ThreadFacts> {
  await ctx.db
    .select({ id: threadControlStates.id })
    .from(threadControlStates)
    .where(and(eq(threadControlStates.projectId, ctx.project.id), eq(threadControlStates.channelId, channelId), eq(threadControlStates.contactId, contactId)))
    .for("update");
  return loadThread(ctx.db, ctx.project, channelId, contactId);
}

/** BUSINESS_INBOX ⇔ handoff on, as far as thread control changes it. */
async function syncHandoff(ctx: Ctx, move: Move, ownerBefore: ThreadOwner): Promise<void> {
  const [conversation] = await ctx.db
    .select()
    .from(conversations)
    .where(and(eq(conversations.projectId, ctx.project.id), eq(conversations.contactId, move.contactId)));
  if (move.owner === "BUSINESS_INBOX") {
    const row = conversation ?? (await ensureConversation(ctx.db, ctx.project.id, move.contactId, move.channelId, ctx.now));
    await setHandoff(ctx, row.id, { enabled: true, reason: move.input.reason ?? row.handoffReason ?? "passed to the business inbox" });
  } else if (ownerBefore === "BUSINESS_INBOX" && conversation?.handoffStatus === "HUMAN_ACTIVE") {
    await setHandoff(ctx, conversation.id, { enabled: false });
  }
}

/** get: the state in force; the row is written on first use (default owner, not explicit), nothing else changes. */
async function getThread(ctx: Ctx, channelId: string, contactId: string) {
  const thread = await loadThread(ctx.db, ctx.project, channelId, contactId);
  if (thread.stored) return serializeThread(thread as ThreadFacts & { stored: ThreadStateRow }, ctx.project.id);
  await ctx.db
    .insert(threadControlStates)
    .values({
      id: newId("threadControl", ctx.now.getTime()),
      projectId: ctx.project.id,
      channelId,
      contactId,
      owner: thread.owner,
      businessAgentId: thread.businessAgentId,
      metaResult: {},
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .onConflictDoNothing();
  const written = await loadThread(ctx.db, ctx.project, channelId, contactId);
  return serializeThread(written as ThreadFacts & { stored: ThreadStateRow }, ctx.project.id);
}

/** The wire state: the stored row with the owner in force (and, for a default state, the agent that owns it). */
export function serializeThread(thread: ThreadFacts & { stored: ThreadStateRow }, projectId: string) {
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
