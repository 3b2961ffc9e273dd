import { and, eq } from "drizzle-orm";
import { conversations, threadControlStates } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { newId } from "@/lib/ids";
import { ensureConversation } from "./ensure";
import { getConversationRowOrThrow } from "./read";
import type { ConversationRow } from "./row";
import { serializeConversation } from "./serialize";
import { loadThread, resolveOwner, type OwnerFacts, type ThreadFacts, type ThreadOwner, type ThreadStateRow } from "./thread-owner";
import { publishInboxEvent } from "@/lib/domain/inbox-live";

/**
 * The conversation's handoff and its thread's owner move together (docs/api-decisions.md "Business
 * agents: thread owner on the conversation"), one way or the other: a handoff change moves the owner
 * (syncThreadOwner), an owner move turns the handoff (syncHandoff). The two call each other, so they
 * live in one file; the second call finds both in agreement and moves nothing.
 */

/**
 * Turns the human handoff on (HUMAN_ACTIVE) or off (AI_ACTIVE). Turning it on again while it is on
 * keeps handoff_at (when it started) and the reason, unless a new reason is given. Under AGENT routing
 * the thread's owner moves with it.
 */
export async function setHandoff(ctx: Ctx, id: string, input: { enabled: boolean; reason?: string | null }) {
  // One transaction (a savepoint inside a caller's): the thread's owner moves with the handoff.
  const conversation = await ctx.db.transaction(async (tx) => writeHandoff({ ...ctx, db: tx }, id, input));
  // Every handoff change (the API, thread control, an agent's or an automation's) ends here. Inside a
  // caller's transaction this runs before its commit; the publisher's few milliseconds of gathering
  // cover those short transactions (lib/domain/inbox-live/publisher.ts).
  publishInboxEvent(ctx.project.id, { type: "conversation.updated", conversation_id: conversation.id });
  return conversation;
}

async function writeHandoff(ctx: Ctx, id: string, input: { enabled: boolean; reason?: string | null }) {
  const conversation = await getConversationRowOrThrow(ctx, id);
  const alreadyOn = conversation.handoffStatus === "HUMAN_ACTIVE";
  await syncThreadOwner(ctx, conversation, input);
  const [row] = await ctx.db
    .update(conversations)
    .set(
      input.enabled
        ? {
            handoffStatus: "HUMAN_ACTIVE",
            handoffReason: input.reason !== undefined ? input.reason : alreadyOn ? conversation.handoffReason : null,
            handoffAt: alreadyOn && conversation.handoffAt ? conversation.handoffAt : ctx.now,
            updatedAt: ctx.now,
          }
        : { handoffStatus: "AI_ACTIVE", handoffReason: null, handoffAt: null, updatedAt: ctx.now },
    )
    .where(eq(conversations.id, conversation.id))
    .returning();
  return serializeConversation(ctx, row!);
}

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

/** Moves the thread on the conversation's last channel (the one the inbox replies on) as the handoff change implies. */
async function syncThreadOwner(ctx: Ctx, conversation: ConversationRow, input: { enabled: boolean; reason?: string | null }): Promise<void> {
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

export interface ThreadMove {
  channelId: string;
  contactId: string;
  owner: ThreadOwner;
  agentId: string | null;
  input: { action: "take" | "pass"; reason?: string | undefined; thread_id?: string | undefined; payload?: Record<string, unknown> | undefined };
}

/**
 * take / pass inside the caller's transaction: the state row (held FOR UPDATE while the owner
 * changes) and the conversation's handoff, together. Thread control and the agent's own handoff use it.
 */
export async function moveThread(ctx: Ctx, move: ThreadMove): Promise<ThreadFacts & { stored: ThreadStateRow }> {
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

/** BUSINESS_INBOX ⇔ handoff on, as far as an owner move changes it. */
async function syncHandoff(ctx: Ctx, move: ThreadMove, ownerBefore: ThreadOwner): Promise<void> {
  const [conversation] = await ctx.db
    .select()
    .from(conversations)
    .where(and(eq(conversations.projectId, ctx.project.id), eq(conversations.contactId, move.contactId)));
  if (move.owner === "BUSINESS_INBOX") {
    const row = conversation ?? (await ensureConversation(ctx.db, ctx.project.id, move.contactId, move.channelId, ctx.now));
    await setHandoff(ctx, row.id, { enabled: true, reason: move.input.reason ?? row.handoffReason ?? "passed to the business inbox" });
  } else if (ownerBefore === "BUSINESS_INBOX" && conversation?.handoffStatus === "HUMAN_ACTIVE") {
    await setHandoff(ctx, conversation.id, { enabled: false });
  } else if (conversation) {
    // The owner moved without the handoff (the agent takes or passes): the conversation's thread_owner changed.
    publishInboxEvent(ctx.project.id, { type: "conversation.updated", conversation_id: conversation.id });
  }
}

/** The state in force with a row (so it has an id): written on first look as the default owner, not explicit. */
export async function threadStateRow(ctx: Ctx, channelId: string, contactId: string): Promise<ThreadFacts & { stored: ThreadStateRow }> {
  const thread = await loadThread(ctx.db, ctx.project, channelId, contactId);
  if (thread.stored) return thread as ThreadFacts & { stored: ThreadStateRow };
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
  return (await loadThread(ctx.db, ctx.project, channelId, contactId)) as ThreadFacts & { stored: ThreadStateRow };
}
