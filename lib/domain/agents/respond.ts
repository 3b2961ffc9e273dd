import { and, eq } from "drizzle-orm";
import { contacts, conversations } from "@/lib/db/schema";
import type { Ctx, ProjectRow, SystemCtx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { ConversationRow } from "@/lib/domain/conversations";
import { inboundRoute } from "@/lib/domain/events";
import { isCustomerTurn } from "@/lib/domain/automations/hook";
import { matchCandidates, type MessageFacts } from "@/lib/domain/automations/match";
import { projectCtx } from "@/lib/domain/automations/runs";
import { loadInboundMessage, type InboundMessageRow } from "@/lib/domain/messages/inbound-row";
import { sendMessage } from "@/lib/domain/messages/send";
import { SvcError } from "@/lib/errors";
import { runAgent, type AgentResult } from "./engine";
import { loadAgentTools } from "./tool-call";
import { moveThread } from "@/lib/domain/conversations/handoff";
import { loadThread, routingOwner } from "@/lib/domain/conversations/thread-owner";

/**
 * The agent's live reply (docs/spec/decisions.md "Business agents"): where the channel's effective
 * routing is AGENT (lib/shared/routing-modes.ts), a customer turn on a thread the agent owns gets an agents.respond job in the message's transaction (ingest);
 * the job runs the engine for real (tools called, not dry) and sends the reply as an internal send
 * keyed by the message, so a retried job returns the first send instead of a second one. A handoff
 * keyword passes the thread to the inbox (handoff on) after the reply, if any, went out: with the
 * handoff on, automated sends are refused (ai_handoff_active).
 */
export const AGENT_RESPOND_JOB = "agents.respond";

/** The reply's idempotency key: one reply per customer message. */
function agentReplyKey(messageId: string): string {
  return `agent-reply:${messageId}`;
}

/** Inside the message's transaction (ctx.db), as an inbound message stored reaction. */
export async function queueAgentRespond(
  ctx: Pick<SystemCtx, "db" | "ports">,
  input: { project: ProjectRow; channel: ChannelRow; conversation: ConversationRow; contactId: string; messageType: string; messageId: string },
): Promise<void> {
  if (!isCustomerTurn(input.messageType)) return;
  const owner = await routingOwner(ctx.db, input.project, input.channel, input.contactId);
  if (owner === undefined || inboundRoute(input.project, input.channel, input.conversation, owner).route !== "agent") return;
  await ctx.ports.queue.send(AGENT_RESPOND_JOB, { messageId: input.messageId }, { tx: ctx.db });
}

type InboundMessage = InboundMessageRow;

/** agents.respond: null when the agent no longer owns the thread (taken, passed, handoff on, agent not ACTIVE) or the channel no longer routes AGENT. */
export async function respondToMessage(system: SystemCtx, messageId: string): Promise<AgentResult | null> {
  const message = await loadInboundMessage(system.db, messageId);
  if (!message) return null;
  const ctx = await projectCtx(system, message.projectId);
  if (!ctx) return null;
  const [conversation] = await ctx.db
    .select()
    .from(conversations)
    .where(and(eq(conversations.projectId, ctx.project.id), eq(conversations.id, message.conversationId)));
  if (!conversation || conversation.handoffStatus === "HUMAN_ACTIVE") return null;
  const thread = await loadThread(ctx.db, ctx.project, message.channelId, message.contactId);
  if (!thread.routesAgent || thread.owner !== "PROVIDER_AGENT" || !thread.agent) return null;
  const [contact] = await ctx.db
    .select({ id: contacts.id, name: contacts.name, phone: contacts.phone })
    .from(contacts)
    .where(and(eq(contacts.projectId, ctx.project.id), eq(contacts.id, message.contactId)));
  if (!contact) return null;

  const result = await runAgent(ctx, {
    agent: thread.agent,
    tools: await loadAgentTools(ctx, thread.agent.id),
    text: matchCandidates(factsOf(message)).join("\n"),
    contact,
    conversationId: conversation.id,
    channelId: message.channelId,
    dryRun: false,
  });
  if (result.reply) await sendReply(ctx, message, result.reply);
  if (result.handoff) await handOff(ctx, message);
  return result;
}

function factsOf(message: InboundMessage): MessageFacts {
  const body = message.body as { text?: unknown; interactive?: MessageFacts["interactive"] };
  const text = typeof body.text === "string" ? body.text : message.content;
  return { type: message.type, text, interactive: body.interactive ?? null };
}

async function sendReply(ctx: Ctx, message: InboundMessage, text: string): Promise<void> {
  try {
    await sendMessage(ctx, {
      channel_id: message.channelId,
      conversation_id: message.conversationId,
      message: { content: { kind: "text", text: text.slice(0, 4096) } },
      idempotencyKey: agentReplyKey(message.id),
      internal: true,
    });
  } catch (error) {
    // A teammate turned the handoff on between the decision and the send: the thread is theirs.
    if (SvcError.is(error) && error.code === "ai_handoff_active") return;
    throw error;
  }
}

async function handOff(ctx: Ctx, message: InboundMessage): Promise<void> {
  await ctx.db.transaction((tx) =>
    moveThread(
      { ...ctx, db: tx },
      {
        channelId: message.channelId,
        contactId: message.contactId,
        owner: "BUSINESS_INBOX",
        agentId: null,
        input: { action: "pass", reason: "The customer asked for a person (handoff keyword)." },
      },
    ),
  );
}
