import { and, eq, gt } from "drizzle-orm";
import { messages, sandboxParticipants } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import type { Limiter } from "@/lib/ports/limiter";
import type { JobQueue } from "@/lib/ports/queue";
import { newId } from "@/lib/ids";
import { SvcError, notFound } from "@/lib/errors";
import { getChannelRowOrThrow } from "@/lib/domain/channels";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { getContactRowOrThrow } from "@/lib/domain/contacts";
import { activeOptIn, phoneDigits, upsertContact, type ContactRow } from "@/lib/domain/contacts/identity";
import { ensureConversation, getConversationRowOrThrow, lastCustomerMessageAt, MESSAGING_WINDOW_MS, type ConversationRow } from "@/lib/domain/conversations";
import { messageTextOf, messageTypeOf, type OutboundMessage } from "./content";
import { takePairSlot } from "./pacing";
import { assertContentSupported } from "./platform-rules";
import { PROVIDER_SEND_JOB } from "./jobs";

export interface SendPorts {
  limiter: Limiter;
  queue: JobQueue;
}

export interface SendInput {
  channel_id: string;
  conversation_id?: string | undefined;
  to?: string | undefined;
  message: OutboundMessage;
  idempotencyKey: string | null;
}

const IDEMPOTENCY_WINDOW_MS = 24 * 3600_000;

/** The recipient's platform address: digits on PLATFORM_A, the platform user id on B and C. */
export function recipientAddress(platform: string, contact: ContactRow): string {
  if (platform === "PLATFORM_A" && contact.phone) return phoneDigits(contact.phone);
  if (contact.userId) return contact.userId;
  throw new SvcError("unprocessable", "This contact has no address on the channel's platform.", { contact_id: contact.id });
}

/**
 * POST /messages: validate against the channel and the conversation's state, take the pair slot,
 * then write the message (queued) and its provider job in ONE transaction.
 */
export async function sendMessage(ctx: Ctx, ports: SendPorts, input: SendInput) {
  const idempotencyKey = input.idempotencyKey ?? newId("idempotencyKey", ctx.now.getTime());
  const earlier = await findByIdempotencyKey(ctx, idempotencyKey);
  if (earlier) return earlier;

  const channel = await getChannelRowOrThrow(ctx, input.channel_id);
  assertContentSupported(channel.platform, input.message);
  if (channel.status !== "connected") {
    throw new SvcError("channel_not_ready", `Channel ${channel.id} is ${channel.status}; it must be connected to send.`, { blockers: ["CHANNEL_NOT_CONNECTED"] });
  }
  const { contact, conversation } = input.conversation_id ? await byConversation(ctx, channel, input.conversation_id) : await byPhone(ctx, channel, input.to!);
  await checkWindow(ctx, channel, conversation, input.message);
  if (conversation.handoffStatus === "HUMAN_ACTIVE" && ctx.actor.type !== "user") {
    throw new SvcError("ai_handoff_active", "A teammate has taken over this conversation (handoff is on). Automated replies are refused until handoff is turned off.", { conversation_id: conversation.id });
  }
  const replyTo = input.message.replyTo ? await resolveReplyTo(ctx, input.message.replyTo) : null;
  const recipient = recipientAddress(channel.platform, contact);
  const release = await takePairSlot(ports.limiter, channel, recipient, ctx.now);

  try {
    const id = newId("message", ctx.now.getTime());
    await ctx.db.transaction(async (tx) => {
      await tx.insert(messages).values({
        id,
        projectId: ctx.project.id,
        conversationId: conversation.id,
        contactId: contact.id,
        channelId: channel.id,
        direction: "outbound",
        type: messageTypeOf(input.message.content),
        status: "queued",
        content: messageTextOf(input.message.content),
        body: { ...input.message.content } as Record<string, unknown>,
        recipient,
        replyTo,
        idempotencyKey,
        timestamp: ctx.now,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      });
      await ports.queue.send(PROVIDER_SEND_JOB, { messageId: id }, { tx });
    });
    return response(id, conversation.id, contact.id, idempotencyKey);
  } catch (error) {
    await release();
    throw error;
  }
}

function response(id: string, conversationId: string, contactId: string, idempotencyKey: string) {
  return { object: "message" as const, id, status: "queued" as const, conversation_id: conversationId, contact_id: contactId, idempotency_key: idempotencyKey };
}

/** The message a key already created in the last 24 h (a retry after the API's own record was lost). */
async function findByIdempotencyKey(ctx: Ctx, key: string) {
  const [row] = await ctx.db
    .select()
    .from(messages)
    .where(and(eq(messages.projectId, ctx.project.id), eq(messages.idempotencyKey, key), gt(messages.createdAt, new Date(ctx.now.getTime() - IDEMPOTENCY_WINDOW_MS))));
  return row ? response(row.id, row.conversationId, row.contactId, key) : null;
}

async function byConversation(ctx: Ctx, channel: ChannelRow, conversationId: string) {
  const conversation = await getConversationRowOrThrow(ctx, conversationId);
  const contact = await getContactRowOrThrow(ctx, conversation.contactId);
  if (channel.isSandbox) await assertJoined(ctx, channel, contact);
  return { contact, conversation };
}

async function byPhone(ctx: Ctx, channel: ChannelRow, to: string): Promise<{ contact: ContactRow; conversation: ConversationRow }> {
  if (channel.isSandbox) {
    throw new SvcError("feature_unsupported_on_channel", "The shared sandbox only replies to joined testers: send with conversation_id, or connect a dedicated channel to send by `to`.", { channel_id: channel.id });
  }
  if (channel.platform !== "PLATFORM_A") {
    throw new SvcError("feature_unsupported_on_channel", `${channel.platform} does not expose business-initiated sends: reply with conversation_id within 24 hours of the customer's message.`, { channel_id: channel.id, platform: channel.platform });
  }
  const contact = await upsertContact(ctx.db, { projectId: ctx.project.id, organizationId: ctx.org.id, channelId: channel.id, platform: channel.platform, phone: to, now: ctx.now });
  if (ctx.project.requireOptIn && !(await activeOptIn(ctx.db, ctx.project.id, contact.id))) {
    throw new SvcError("contact_opt_in_required", "This project requires an active opt-in before starting a conversation. Record one with POST /contacts (opt_in: true), or set require_opt_in false.", { contact_id: contact.id });
  }
  const conversation = await ensureConversation(ctx.db, ctx.project.id, contact.id, channel.id, ctx.now);
  return { contact, conversation };
}

async function assertJoined(ctx: Ctx, channel: ChannelRow, contact: ContactRow) {
  const address = contact.phone ? phoneDigits(contact.phone) : contact.userId ?? "";
  const [joined] = await ctx.db
    .select({ id: sandboxParticipants.id })
    .from(sandboxParticipants)
    .where(and(eq(sandboxParticipants.channelId, channel.id), eq(sandboxParticipants.address, address), eq(sandboxParticipants.projectId, ctx.project.id)));
  if (!joined) {
    throw new SvcError("sandbox_recipient_not_joined", `This contact has not joined the project on the sandbox. They send "join ${ctx.project.joinCode}" to ${channel.phoneNumber} first.`, { contact_id: contact.id });
  }
}

/** Free-form messages need a customer message on this channel within 24 h; outside it PLATFORM_A needs a template. */
async function checkWindow(ctx: Ctx, channel: ChannelRow, conversation: ConversationRow, message: OutboundMessage) {
  if (message.content.kind === "template") return;
  const last = await lastCustomerMessageAt(ctx.db, conversation.id, channel.id);
  if (last && ctx.now.getTime() - last.getTime() < MESSAGING_WINDOW_MS) return;
  const hint = channel.platform === "PLATFORM_A" ? "Send an approved template to re-open the conversation." : `${channel.platform} does not allow messages outside the window.`;
  throw new SvcError("outside_messaging_window", `The customer has not written on this channel in the last 24 hours${last ? ` (last message ${last.toISOString()})` : ""}. ${hint}`, {
    conversation_id: conversation.id,
    last_customer_message_at: last?.toISOString() ?? null,
  });
}

/** reply_to takes a provider message id, or one of our msg_ ids (resolved to its provider id). */
async function resolveReplyTo(ctx: Ctx, replyTo: string): Promise<string> {
  if (!replyTo.startsWith("msg_")) return replyTo;
  const [row] = await ctx.db.select({ pid: messages.platformMessageId }).from(messages).where(and(eq(messages.projectId, ctx.project.id), eq(messages.id, replyTo)));
  if (!row) throw notFound("message", replyTo);
  if (!row.pid) throw new SvcError("unprocessable", `Message ${replyTo} has no provider id yet, so it cannot be quoted.`, { issues: { reply_to: ["Not yet accepted by the provider."] } });
  return row.pid;
}
