import { and, eq } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import type { AnswerRecord, Ctx, FoldedClaim } from "@/lib/domain/context";
import type { Db } from "@/lib/ports/db/types";
import { newId } from "@/lib/ids";
import { SvcError, notFound } from "@/lib/errors";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import {
  insertOutboundMessageTouchingConversation,
  insertOutboundMessageWithJob,
  lastCustomerMessageAt,
  messagingWindow,
  type ConversationRow,
} from "@/lib/domain/conversations";
import { messageTextOf, messageTypeOf } from "./content";
import type { OutboundMessage } from "@/lib/ports/provider/outbound";
import { jobPayload } from "@/lib/ports/queue/job-insert";
import { takePairSlot } from "./pacing";
import { assertContentSupported } from "./platform-rules";
import { byPhone, conversationTarget, ensureTarget, type Target } from "./recipient";
import { readSendContext } from "./send-context";
import { PROVIDER_SEND_JOB, type ProviderSendJob } from "./provider-send";
import { contentFieldsOf, sentContentFields, type MessageContentFields } from "./serialize";
import { messageRow, type MessageFacts } from "./rows";
import { outboundSendClaims } from "./send-claims";
import { publishInboxEvent } from "@/lib/domain/inbox-live";

export interface SendInput {
  channel_id: string;
  conversation_id?: string | undefined;
  to?: string | undefined;
  message: OutboundMessage;
  idempotencyKey: string | null;
  /**
   * An internal send (the inbox, automations, workers): it waits for its pair slot in the queue instead
   * of a 429 (docs/spec/service-spec.md pair-limit rules). Default: every actor but an API key.
   */
  internal?: boolean;
  /**
   * The request's idempotency record (POST /messages only: the send's answer is the route's answer). The
   * common send stores the answer in its one statement; any other leaves it to the route wrapper.
   */
  record?: AnswerRecord | null;
  /** The request's Idempotency-Key claim, taken by the send's first read (POST /messages only; FoldedClaim). */
  claim?: FoldedClaim | null;
  /** Writes that belong with the message (a Flow's dispatch), in its transaction: they commit together or not at all. */
  alongside?: (tx: Db, written: { messageId: string; conversationId: string; contactId: string; idempotencyKey: string }) => Promise<void>;
}

/**
 * POST /messages: validate against the channel and the recipient's state (reading only), take the
 * pair slot, then write the message (queued) and its provider job in ONE transaction (with the
 * contact and conversation of a new `to` recipient). A refused send writes nothing.
 */
export async function sendMessage(ctx: Ctx, input: SendInput) {
  const idempotencyKey = input.idempotencyKey ?? newId("idempotencyKey", ctx.now.getTime());
  // One read: the key's earlier message (a key made up just now has none), the channel, and a reply's conversation.
  const read = await readSendContext(ctx, input.channel_id, input.idempotencyKey ? idempotencyKey : null, input.conversation_id ?? null, input.claim ?? null);
  // The key was already claimed (a replay, a request in progress, a reuse): the route answers as without the fold.
  if (input.claim && !read.claimed) input.claim.notTaken();
  await input.claim?.taken();
  // An earlier message of the key answers first, even when the channel is not visible (any more).
  if (read.earlier) return response(read.earlier.id, read.earlier.conversationId, read.earlier.contactId, idempotencyKey, contentFieldsOf(read.earlier.body));
  const channel = read.channel;
  if (!channel) throw notFound("channel", input.channel_id);
  assertContentSupported(channel.platform, input.message);
  assertChannelReady(channel, input.message);
  // Content a feature owns is prepared by it (a template: the channel's own, APPROVED, its FLOW buttons' dispatches alongside).
  const { message, alongside } = (await outboundSendClaims.first(ctx, { channel, input })) ?? { message: input.message, alongside: input.alongside ?? null };
  const target = input.conversation_id ? conversationTarget(ctx, channel, read, input.conversation_id) : await byPhone(ctx, channel, input.to!);
  if (target.conversation) assertNoHandoff(ctx, target.conversation);
  await checkWindow(ctx, channel, target, message);
  const replyTo = message.replyTo ? await resolveReplyTo(ctx, message.replyTo) : null;
  // An internal send (an operator's, an automation's) waits for its pair slot in the queue, never a 429.
  if (input.internal ?? ctx.actor.type !== "api_key")
    return writeMessage(ctx, channel, target, message, { replyTo, idempotencyKey, paced: true, alongside, record: input.record ?? null });
  const release = await takePairSlot(ctx.ports.limiter, channel, target.address);
  try {
    return await writeMessage(ctx, channel, target, message, { replyTo, idempotencyKey, paced: false, alongside, record: input.record ?? null });
  } catch (error) {
    await release();
    throw error;
  }
}

type WriteExtra = { replyTo: string | null; idempotencyKey: string; paced: boolean; alongside: SendInput["alongside"] | null; record: AnswerRecord | null };

async function writeMessage(ctx: Ctx, channel: ChannelRow, target: Target, message: OutboundMessage, extra: WriteExtra) {
  const id = newId("message", ctx.now.getTime());
  const job: ProviderSendJob = extra.paced ? { messageId: id, paced: true } : { messageId: id };
  const rowOf = (contactId: string, conversationId: string) => {
    const place = { projectId: ctx.project.id, conversationId, contactId, channelId: channel.id };
    const facts: MessageFacts = {
      id,
      direction: "outbound",
      type: messageTypeOf(message.content),
      status: "queued",
      content: messageTextOf(message.content),
      body: { ...message.content } as Record<string, unknown>,
      at: ctx.now,
      now: ctx.now,
    };
    return messageRow(place, facts, { recipient: target.address, replyTo: extra.replyTo, idempotencyKey: extra.idempotencyKey });
  };
  const answer = (contactId: string, conversationId: string) =>
    response(id, conversationId, contactId, extra.idempotencyKey, sentContentFields(message.content));

  let sent: ReturnType<typeof answer>;
  if (target.phone === null && !extra.alongside) {
    // The common send, to a conversation that exists with nothing written beside it: the message, the
    // conversation's last_message_at and the provider job in ONE statement (no BEGIN/COMMIT round trips).
    const { contact, conversation } = { contact: target.contact!, conversation: target.conversation! };
    const insert = ctx.ports.queue.insertion(PROVIDER_SEND_JOB);
    sent = answer(contact.id, conversation.id);
    // The request's idempotency record completes in the same statement: the answer is stored if and only if the message is.
    const record = extra.record;
    const stored = record ? { cte: record.cte, values: record.values(sent) } : null;
    await insertOutboundMessageWithJob(ctx.db, rowOf(contact.id, conversation.id), ctx.now, { insert, payload: jobPayload(PROVIDER_SEND_JOB, job) }, stored);
    if (record) record.stored = true;
  } else {
    sent = await ctx.db.transaction(async (tx) => {
      const { contact, conversation } = await ensureTarget(ctx, tx, channel, target);
      // The message and the conversation's last_message_at in one statement.
      await insertOutboundMessageTouchingConversation(tx, rowOf(contact.id, conversation.id), ctx.now);
      await ctx.ports.queue.send(PROVIDER_SEND_JOB, job, { tx });
      await extra.alongside?.(tx, { messageId: id, conversationId: conversation.id, contactId: contact.id, idempotencyKey: extra.idempotencyKey });
      return answer(contact.id, conversation.id);
    });
  }
  // Every send (POST /messages, the inbox, automations, agents, Flows) is written here: one place to announce it, once committed.
  publishInboxEvent(ctx.project.id, { type: "message.created", conversation_id: sent.conversation_id, id });
  return sent;
}

/** The spec's send response, plus the structured content as stored (the Message object's fields). */
function response(id: string, conversationId: string, contactId: string, idempotencyKey: string, content: MessageContentFields) {
  return {
    object: "message" as const,
    id,
    status: "queued" as const,
    conversation_id: conversationId,
    contact_id: contactId,
    idempotency_key: idempotencyKey,
    ...content,
  };
}

/** 412 channel_not_ready: the channel must be connected, and the shared sandbox sends no templates. */
function assertChannelReady(channel: ChannelRow, message: OutboundMessage) {
  if (channel.status !== "connected") {
    const next = channel.status === "disconnected" ? " It was disconnected: connect the number again (POST /channels) or send through another channel." : "";
    throw new SvcError("channel_not_ready", `Channel ${channel.id} is ${channel.status}; it must be connected to send.${next}`, {
      channel_id: channel.id,
      blockers: ["CHANNEL_NOT_CONNECTED"],
    });
  }
  if (channel.isSandbox && message.content.kind === "template") {
    throw new SvcError(
      "channel_not_ready",
      "The shared sandbox cannot send templates. Reply to joined testers with free-form messages within 24 hours of their last message, or connect a dedicated PLATFORM_A channel (POST /channels) to send templates.",
      { channel_id: channel.id, blockers: ["SANDBOX_TEMPLATES_NOT_SUPPORTED"] },
    );
  }
}

/** Spec: while a teammate has taken over, automated POST /messages replies are refused (hard stop). */
function assertNoHandoff(ctx: Ctx, conversation: ConversationRow) {
  if (conversation.handoffStatus === "HUMAN_ACTIVE" && ctx.actor.type !== "user") {
    throw new SvcError(
      "ai_handoff_active",
      "A teammate has taken over this conversation (handoff is on). Automated replies are refused until handoff is turned off (POST /conversations/{id}/handoff {enabled: false}).",
      { conversation_id: conversation.id },
    );
  }
}

/** Free-form messages need a customer message on this channel within 24 h; outside it PLATFORM_A needs a template. */
async function checkWindow(ctx: Ctx, channel: ChannelRow, target: Target, message: OutboundMessage) {
  if (message.content.kind === "template") return;
  const { conversation } = target;
  const last =
    target.lastCustomerMessageAt !== undefined
      ? target.lastCustomerMessageAt
      : conversation
        ? await lastCustomerMessageAt(ctx.db, conversation.id, channel.id)
        : null;
  if (messagingWindow(last, ctx.now).open) return;
  const hint =
    channel.platform === "PLATFORM_A"
      ? "Send an approved template to re-open the conversation."
      : `${channel.platform} does not allow messages outside the window.`;
  const since = last ? `has not written on this channel in the last 24 hours (last message ${last.toISOString()})` : "has never written on this channel";
  throw new SvcError("outside_messaging_window", `The customer ${since}. ${hint}`, {
    channel_id: channel.id,
    conversation_id: conversation?.id ?? null,
    last_customer_message_at: last?.toISOString() ?? null,
  });
}

/** reply_to takes a provider message id, or one of our msg_ ids (resolved to its provider id). */
async function resolveReplyTo(ctx: Ctx, replyTo: string): Promise<string> {
  if (!replyTo.startsWith("msg_")) return replyTo;
  const [row] = await ctx.db
    .select({ pid: messages.platformMessageId })
    .from(messages)
    .where(and(eq(messages.projectId, ctx.project.id), eq(messages.id, replyTo)));
  if (!row) throw notFound("message", replyTo);
  if (!row.pid)
    throw new SvcError("unprocessable", `Message ${replyTo} has no provider id yet, so it cannot be quoted.`, {
      issues: { reply_to: ["Not yet accepted by the provider."] },
    });
  return row.pid;
}
