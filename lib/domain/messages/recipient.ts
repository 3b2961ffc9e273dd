/**
 * Who a POST /messages goes to: the contact and conversation of `conversation_id`, or of the phone
 * number `to`. Everything here only READS: a send refused for any reason (opt-in, window, pacing, ...)
 * leaves no contact or conversation behind. A `to` send creates (or refreshes) its contact and
 * conversation in the send's own transaction: `ensureTarget`.
 */
import { and, eq } from "drizzle-orm";
import { contactIdentities, contacts, conversations } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import type { Db } from "@/lib/ports/db/types";
import { SvcError, notFound } from "@/lib/errors";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { activeOptIn, phoneDigits, upsertContact, type ContactRow } from "@/lib/domain/contacts/identity";
import { ensureConversation, type ConversationRow } from "@/lib/domain/conversations";
import type { SendContext } from "./send-context";

/**
 * The recipient as known before the send is written. On a `to` send the contact and conversation may
 * not exist yet (`phone` is then set and ensureTarget creates them).
 */
export interface Target {
  contact: ContactRow | null;
  conversation: ConversationRow | null;
  /** The E.164 number of a `to` send; null for conversation_id sends. */
  phone: string | null;
  /** The recipient's address on the channel's platform (pacing key and provider `to`). */
  address: string;
  /** The customer's last message on the channel (the 24 h window), read with the conversation; undefined when not read. */
  lastCustomerMessageAt?: Date | null;
}

/** The recipient's platform address: digits on PLATFORM_A, the platform user id on B and C. */
function recipientAddress(platform: string, contact: ContactRow): string {
  if (platform === "PLATFORM_A" && contact.phone) return phoneDigits(contact.phone);
  if (contact.userId) return contact.userId;
  throw new SvcError("unprocessable", "This contact has no address on the channel's platform.", { contact_id: contact.id });
}

/** A reply's target from the send's one read (send-context.ts): 404 without the conversation, 422 for a sandbox contact who has not joined. */
export function conversationTarget(ctx: Ctx, channel: ChannelRow, read: SendContext, conversationId: string): Target {
  const { conversation, contact } = read;
  if (!conversation || !contact) throw notFound("conversation", conversationId);
  if (!read.joined) throw notJoined(ctx, channel, contact);
  return { contact, conversation, phone: null, address: recipientAddress(channel.platform, contact), lastCustomerMessageAt: read.lastCustomerMessageAt };
}

/** A business-initiated send by phone: dedicated PLATFORM_A channels only, and an opt-in when the project requires it. */
export async function byPhone(ctx: Ctx, channel: ChannelRow, to: string): Promise<Target> {
  if (channel.isSandbox) {
    throw new SvcError(
      "feature_unsupported_on_channel",
      "The shared sandbox only replies to joined testers: send with conversation_id, or connect a dedicated channel to send by `to`.",
      { channel_id: channel.id },
    );
  }
  if (channel.platform !== "PLATFORM_A") {
    throw new SvcError(
      "feature_unsupported_on_channel",
      `${channel.platform} does not expose business-initiated sends: reply with conversation_id within 24 hours of the customer's message.`,
      { channel_id: channel.id, platform: channel.platform },
    );
  }
  const contact = await findContactByPhone(ctx, to);
  if (ctx.project.requireOptIn && !(contact && (await activeOptIn(ctx.db, ctx.project.id, contact.id)))) {
    throw new SvcError(
      "contact_opt_in_required",
      "This project requires an active opt-in before starting a conversation. Record one with POST /contacts (opt_in: true), or set require_opt_in false.",
      { contact_id: contact?.id ?? null },
    );
  }
  const conversation = contact ? await findConversation(ctx, contact.id) : null;
  return { contact, conversation, phone: to, address: phoneDigits(to) };
}

/** Inside the send's transaction: the contact and conversation of the target, created for a new `to` recipient. */
export async function ensureTarget(ctx: Ctx, tx: Db, channel: ChannelRow, target: Target): Promise<{ contact: ContactRow; conversation: ConversationRow }> {
  if (target.phone === null) return { contact: target.contact!, conversation: target.conversation! };
  const contact = await upsertContact(tx, {
    projectId: ctx.project.id,
    organizationId: ctx.org.id,
    channelId: channel.id,
    platform: channel.platform,
    phone: target.phone,
    now: ctx.now,
  });
  const conversation = await ensureConversation(tx, ctx.project.id, contact.id, channel.id, ctx.now);
  return { contact, conversation };
}

/** The project's contact for a phone number (the organization-wide identity), without creating one. */
async function findContactByPhone(ctx: Ctx, phone: string): Promise<ContactRow | null> {
  const [row] = await ctx.db
    .select({ contact: contacts })
    .from(contactIdentities)
    .innerJoin(contacts, and(eq(contacts.projectId, ctx.project.id), eq(contacts.id, contactIdentities.contactId)))
    .where(and(eq(contactIdentities.organizationId, ctx.org.id), eq(contactIdentities.kind, "phone"), eq(contactIdentities.value, phoneDigits(phone))));
  return row?.contact ?? null;
}

async function findConversation(ctx: Ctx, contactId: string): Promise<ConversationRow | null> {
  const [row] = await ctx.db
    .select()
    .from(conversations)
    .where(and(eq(conversations.projectId, ctx.project.id), eq(conversations.contactId, contactId)));
  return row ?? null;
}

function notJoined(ctx: Ctx, channel: ChannelRow, contact: ContactRow): SvcError {
  return new SvcError(
    "sandbox_recipient_not_joined",
    `This contact has not joined the project on the sandbox. They send "join ${ctx.project.joinCode}" to ${channel.phoneNumber} first.`,
    { contact_id: contact.id },
  );
}
