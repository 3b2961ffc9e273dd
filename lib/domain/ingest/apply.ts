import { and, eq, or } from "drizzle-orm";
import { channels, contacts, messages, projects } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { newId } from "@/lib/ids";
import type { ProjectRow } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { aliasIdentity, upsertContact, recordOptIn, type ContactRow } from "@/lib/domain/contacts/identity";
import { ensureConversation, touchConversation, type ConversationRow } from "@/lib/domain/conversations";
import { emitEvent, inboundRoute } from "@/lib/domain/events";
import { applyStatus } from "@/lib/domain/messages/status";
import type { MessageRow } from "@/lib/domain/messages/serialize";
import type { InboundEvent, InboundParty, NormalizedInboundMessage } from "./types";
import { messageReceivedPayload, mediaOf } from "./payload";
import { joinCodeIn, joinProject, participantProject } from "./sandbox-join";

export type ApplyOutcome =
  | "stored" | "duplicate" | "mutated" | "status" | "status_pending" | "status_ignored" | "call" | "echo" | "joined"
  | "identity" | "no_channel" | "no_project" | "join_rejected";

type Event<K extends InboundEvent["kind"]> = Extract<InboundEvent, { kind: K }>;

/** Applies one normalised provider event. Safe to run twice: provider retries change nothing. */
export async function applyInboundEvent(db: Db, event: InboundEvent, now: Date): Promise<ApplyOutcome> {
  const [channel] = await db.select().from(channels).where(and(eq(channels.platform, event.platform), eq(channels.providerSenderId, event.senderId)));
  if (!channel) return "no_channel";
  switch (event.kind) {
    case "message":
      return applyMessage(db, channel, event, now);
    case "status":
      return applyProviderStatus(db, channel, event);
    case "echo":
      return applyEcho(db, channel, event, now);
    case "call":
      return applyCall(db, channel, event, now);
    case "identity_change":
      return applyIdentityChange(db, channel, event, now);
  }
}

function addressOf(party: InboundParty): string | null {
  return party.address ?? party.user_id;
}

/** The project an inbound item belongs to: the sandbox tester's joined project, else the channel's. */
async function projectFor(db: Db, channel: ChannelRow, party: InboundParty): Promise<ProjectRow | null> {
  if (channel.isSandbox) {
    const address = addressOf(party);
    return address ? participantProject(db, channel, address) : null;
  }
  const [project] = await db.select().from(projects).where(eq(projects.channelId, channel.id));
  return project ?? null;
}

async function contactAndConversation(db: Db, project: ProjectRow, channel: ChannelRow, party: InboundParty, now: Date) {
  const contact = await upsertContact(db, {
    projectId: project.id,
    organizationId: project.organizationId,
    channelId: channel.id,
    platform: channel.platform,
    phone: party.address,
    userId: party.user_id,
    parentUserId: party.parent_user_id,
    username: party.username,
    name: party.name,
    now,
  });
  const conversation = await ensureConversation(db, project.id, contact.id, channel.id, now);
  return { contact, conversation };
}

async function applyMessage(db: Db, channel: ChannelRow, event: Event<"message">, now: Date): Promise<ApplyOutcome> {
  const address = addressOf(event.from);
  if (!address) return "no_project";
  let joined = false;
  const code = channel.isSandbox ? joinCodeIn(event.message.text) : null;
  if (code) {
    const outcome = await joinProject(db, channel, address, code, now);
    if (outcome.kind !== "joined") return "join_rejected";
    joined = !outcome.alreadyJoined;
  }
  const project = await projectFor(db, channel, event.from);
  if (!project) return "no_project";

  return db.transaction(async (tx) => {
    const { contact, conversation } = await contactAndConversation(tx, project, channel, event.from, now);
    if (joined) {
      await recordOptIn(tx, project.id, contact.id, "sandbox_join", now);
      await emitEvent(tx, project, "participant.joined", {
        project_id: project.id,
        channel_id: channel.id,
        contact_id: contact.id,
        phone: contact.phone,
        user_id: contact.userId,
        joined_at: now.toISOString(),
      }, now, { dedupeKey: `join:${event.message.id}` });
    }
    const message = event.message;
    if (message.type === "edit" || message.type === "revoke") {
      const changed = await mutateOriginal(tx, channel.id, message, now);
      if (!changed) return "duplicate";
      await emitReceived(tx, project, channel, conversation, contact, event.from, changed.id, message, now);
      return "mutated";
    }
    const id = newId("message", now.getTime());
    const receivedAt = new Date(message.received_at);
    const inserted = await tx
      .insert(messages)
      .values({
        id,
        projectId: project.id,
        conversationId: conversation.id,
        contactId: contact.id,
        channelId: channel.id,
        direction: "inbound",
        type: message.type,
        status: "delivered",
        content: message.text,
        body: message as unknown as Record<string, unknown>,
        platformMessageId: message.id,
        replyTo: message.replied_to?.message_id ?? null,
        media: message.media ? mediaOf(message) : null,
        providerTimestamp: receivedAt,
        timestamp: receivedAt,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: messages.id });
    if (!inserted.length) return "duplicate";
    await touchConversation(tx, conversation.id, receivedAt);
    await emitReceived(tx, project, channel, conversation, contact, event.from, id, message, now);
    return joined ? "joined" : "stored";
  });
}

async function emitReceived(db: Db, project: ProjectRow, channel: ChannelRow, conversation: ConversationRow, contact: ContactRow, from: InboundParty, messageId: string, message: NormalizedInboundMessage, now: Date) {
  const { route, deliver } = inboundRoute(project, channel, conversation);
  const payload = messageReceivedPayload({ project, channel, conversation, contact, from, messageId, message });
  await emitEvent(db, project, "message.received", payload, now, { route, deliver, dedupeKey: `received:${channel.id}:${message.id}` });
}

/**
 * Edits update the stored message; revokes clear its content (spec: Replies, edits, deletes). Returns
 * the original, or null when there is nothing (left) to change.
 */
async function mutateOriginal(db: Db, channelId: string, message: NormalizedInboundMessage, now: Date): Promise<MessageRow | null> {
  const originalId = message.edit?.original_message_id ?? message.revoke?.original_message_id;
  if (!originalId) return null;
  const [original] = await db.select().from(messages).where(and(eq(messages.channelId, channelId), eq(messages.platformMessageId, originalId)));
  if (!original) return null;
  if (message.type === "revoke") {
    if (original.status === "deleted") return null;
    const [row] = await db
      .update(messages)
      .set({ content: null, body: { id: original.platformMessageId, type: original.type, revoked: true }, media: null, status: "deleted", deletedAt: now, updatedAt: now })
      .where(eq(messages.id, original.id))
      .returning();
    return row!;
  }
  const text = message.edit!.message.text.body;
  if (original.content === text) return null;
  const [row] = await db
    .update(messages)
    .set({ content: text, body: { ...original.body, text, edited: true }, editedAt: now, updatedAt: now })
    .where(eq(messages.id, original.id))
    .returning();
  return row!;
}

async function applyProviderStatus(db: Db, channel: ChannelRow, event: Event<"status">): Promise<ApplyOutcome> {
  const [message] = await db.select().from(messages).where(and(eq(messages.channelId, channel.id), eq(messages.platformMessageId, event.platform_message_id)));
  // The callback can outrun the send job storing the provider id: the caller retries later.
  if (!message) return "status_pending";
  if (event.status === "deleted") return "status_ignored";
  const error = event.errors[0];
  const moved = await applyStatus(db, message, {
    status: event.status,
    at: new Date(event.timestamp),
    recipientId: event.recipient_id,
    recipientUserId: event.recipient_user_id,
    errors: event.errors,
    raw: event.raw,
    failure:
      event.status === "failed" && error
        ? {
            provider: "provider",
            summary: error.title,
            code: error.code,
            subcode: null,
            type: null,
            title: error.title,
            message: error.message ?? error.title,
            fbtrace_id: null,
            http_status: null,
            occurred_at: event.timestamp,
          }
        : null,
  });
  return moved ? "status" : "status_ignored";
}

/** Business-app echoes update what we store and emit no message.received. */
async function applyEcho(db: Db, channel: ChannelRow, event: Event<"echo">, now: Date): Promise<ApplyOutcome> {
  const message = event.message;
  if (message.type === "edit" || message.type === "revoke") {
    await mutateOriginal(db, channel.id, message, now);
    return "echo";
  }
  const project = await projectFor(db, channel, event.to);
  if (!project) return "no_project";
  await db.transaction(async (tx) => {
    const { contact, conversation } = await contactAndConversation(tx, project, channel, event.to, now);
    const at = new Date(message.received_at);
    await tx
      .insert(messages)
      .values({
        id: newId("message", now.getTime()),
        projectId: project.id,
        conversationId: conversation.id,
        contactId: contact.id,
        channelId: channel.id,
        direction: "outbound",
        type: message.type,
        status: "sent",
        content: message.text,
        body: { ...(message as unknown as Record<string, unknown>), source: "business_app" },
        platformMessageId: message.id,
        recipient: addressOf(event.to),
        timestamp: at,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing();
    await touchConversation(tx, conversation.id, at);
  });
  return "echo";
}

async function applyCall(db: Db, channel: ChannelRow, event: Event<"call">, now: Date): Promise<ApplyOutcome> {
  const party = partyOfCall(event.call);
  const project = await projectFor(db, channel, party);
  if (!project) return "no_project";
  const [contact] = party.address
    ? await db.select().from(contacts).where(and(eq(contacts.projectId, project.id), eq(contacts.phone, `+${party.address}`)))
    : [];
  await emitEvent(db, project, "call.event", {
    kind: event.call_kind,
    call_id: event.call_id,
    event: event.event,
    timestamp: event.timestamp,
    channel_id: channel.id,
    contact_id: contact?.id ?? null,
    call: event.call,
  }, now, { dedupeKey: `call:${event.call_id}:${event.event}:${event.timestamp}` });
  return "call";
}

function partyOfCall(call: Record<string, unknown>): InboundParty {
  const from = typeof call.from === "string" ? call.from : typeof call.recipient_id === "string" ? call.recipient_id : null;
  const to = typeof call.to === "string" ? call.to : null;
  // For a customer-initiated call the customer is `from`; for status items, `recipient_id`.
  return { address: from ?? to, user_id: null, parent_user_id: null, username: null, name: null };
}

async function applyIdentityChange(db: Db, channel: ChannelRow, event: Event<"identity_change">, now: Date): Promise<ApplyOutcome> {
  const previous = event.previous;
  const matches = await db
    .select()
    .from(contacts)
    .where(
      and(
        eq(contacts.channelId, channel.id),
        or(previous.address ? eq(contacts.phone, `+${previous.address}`) : undefined, previous.user_id ? eq(contacts.userId, previous.user_id) : undefined),
      ),
    );
  for (const contact of matches) {
    await aliasIdentity(db, contact.organizationId, { platform: channel.platform, phone: event.current.address, userId: event.current.user_id }, contact.id);
    await db
      .update(contacts)
      .set({
        phone: event.current.address ? `+${event.current.address}` : contact.phone,
        userId: event.current.user_id ?? contact.userId,
        updatedAt: now,
      })
      .where(and(eq(contacts.projectId, contact.projectId), eq(contacts.id, contact.id)));
    await emitEvent(db, { id: contact.projectId }, "contact.identity.updated", {
      contact_id: contact.id,
      channel_id: channel.id,
      previous: { phone: contact.phone, user_id: contact.userId },
      current: { phone: event.current.address ? `+${event.current.address}` : contact.phone, user_id: event.current.user_id ?? contact.userId },
      timestamp: event.timestamp,
    }, now, { dedupeKey: `identity:${contact.id}:${event.timestamp}` });
  }
  return "identity";
}
