import { and, eq } from "drizzle-orm";
import { businessAgents, channels, threadControlStates, type THREAD_OWNERS } from "@/lib/db/schema";
import type { ProjectRow } from "@/lib/domain/context";
import type { Db } from "@/lib/ports/db/types";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { effectiveRouting } from "@/lib/shared/routing-modes";

/**
 * Who owns a customer's thread on a channel (docs/spec/decisions.md "Business agents", thread control):
 * one state per (project, channel, contact), kept beside the conversation because inbound routing,
 * the handoff and the inbox all read it; the agents feature only moves it (POST
 * /business-agents/thread-control). Our decisions (docs/api-decisions.md "Business agents: thread control"):
 * - A state never taken or passed follows the default: PROVIDER_AGENT while the channel routes AGENT
 *   (its effective routing: lib/shared/routing-modes.ts) and its agent (of this project) is ACTIVE,
 *   else SERVICE. A look at the thread never pins it. `meta_result.action` tells an explicit state
 *   from a default one.
 * - An agent that is not ACTIVE cannot own a thread: a thread passed to it follows SERVICE until the
 *   agent is ACTIVE again; the stored pass is kept. A pass holds whatever the project's routing.
 * - pass without an agent → BUSINESS_INBOX and the conversation's handoff on; leaving BUSINESS_INBOX
 *   (take, or pass to the agent) turns the handoff off again (handoff.ts).
 */
export type ThreadOwner = (typeof THREAD_OWNERS)[number];
export type ThreadStateRow = typeof threadControlStates.$inferSelect;
/** The channel's agent as the owner reads it (the agents feature's row: read here, written there). */
type ChannelAgentRow = typeof businessAgents.$inferSelect;

export interface OwnerFacts {
  /** The channel's effective routing is AGENT. */
  routesAgent: boolean;
  /** The channel's agent of this project, if any. */
  agent: Pick<ChannelAgentRow, "id" | "status"> | null;
  stored: Pick<ThreadStateRow, "owner" | "businessAgentId" | "metaResult"> | null;
}

function isExplicit(stored: OwnerFacts["stored"]): boolean {
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

async function channelAgent(db: Db, projectId: string, channelId: string): Promise<ChannelAgentRow | null> {
  const [row] = await db
    .select()
    .from(businessAgents)
    .where(and(eq(businessAgents.projectId, projectId), eq(businessAgents.channelId, channelId)))
    .limit(1);
  return row ?? null;
}

export interface ThreadFacts extends OwnerFacts {
  agent: ChannelAgentRow | null;
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
