import { and, asc, desc, eq, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { channels, contacts, messages, projects } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { preparedPerDb } from "@/lib/ports/db/prepared";
import { newId } from "@/lib/ids";
import type { ProjectRow } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { aliasIdentity, upsertContact, recordOptIn, type ContactRow } from "@/lib/domain/contacts/identity";
import { ensureConversation, insertMessageTouchingConversation, touchConversation, type ConversationRow } from "@/lib/domain/conversations";
import { emitEvent, inboundRoute } from "@/lib/domain/events";
import { applyStatus, canMove, type DeliveryStatus } from "@/lib/domain/messages/status";
import type { MessageRow } from "@/lib/domain/messages/serialize";
import type { InboundEvent, InboundParty, NormalizedInboundMessage } from "./types";
import { messageReceivedPayload, mediaOf } from "./payload";
import { joinCodeIn, joinProject, moveParticipant, participantProject } from "./sandbox-join";
import { env } from "@/lib/config";
import { currentJobQueue } from "@/lib/ports/queue";
import { refreshMessageMedia, registerInboundMedia } from "@/lib/domain/media/cache";

export type ApplyOutcome =
  | "stored" | "duplicate" | "mutated" | "status" | "status_pending" | "status_ignored" | "call" | "echo" | "joined"
  | "identity" | "no_channel" | "no_project" | "join_rejected"
  /** For a disconnected channel (DELETE /channels/{id}): the envelope stays in inbound_webhooks, nothing else is written. */
  | "channel_disconnected"
  /** An edit or delete whose original is not stored yet (separate deliveries can arrive out of order). */
  | "mutation_pending"
  /** An echo that may be our own in-flight send, whose provider id the send job has not stored yet. */
  | "echo_pending";

export interface ApplyOptions {
  /** The last attempt of a retried event: store or drop it now instead of waiting any longer. */
  final?: boolean;
}

/** Outcomes that ask the caller to apply the same event again a little later. */
export function isPending(outcome: ApplyOutcome): boolean {
  return outcome === "status_pending" || outcome === "mutation_pending" || outcome === "echo_pending";
}

type Event<K extends InboundEvent["kind"]> = Extract<InboundEvent, { kind: K }>;

/** Applies one normalised provider event. Safe to run twice: provider retries change nothing. */
export async function applyInboundEvent(db: Db, event: InboundEvent, now: Date, options: ApplyOptions = {}): Promise<ApplyOutcome> {
  const [channel] = await channelBySender(db).execute({ platform: event.platform, sender: event.senderId });
  if (!channel) return "no_channel";
  if (channel.status === "disconnected") return "channel_disconnected";
  switch (event.kind) {
    case "message":
      return applyMessage(db, channel, event, now, options);
    case "status":
      return applyProviderStatus(db, channel, event);
    case "echo":
      return applyEcho(db, channel, event, now, options);
    case "call":
      return applyCall(db, channel, event, now);
    case "identity_change":
      return applyIdentityChange(db, channel, event, now);
  }
}

/** The hottest lookups of ingest, built once per database (every provider item asks them). */
const channelBySender = preparedPerDb((db) =>
  db
    .select()
    .from(channels)
    .where(and(eq(channels.platform, sql.placeholder("platform")), eq(channels.providerSenderId, sql.placeholder("sender"))))
    .prepare("ingest_channel_by_sender"),
);
const projectById = preparedPerDb((db) => db.select().from(projects).where(eq(projects.id, sql.placeholder("id"))).prepare("ingest_project_by_id"));
/** A stored message by its provider id on a channel: only whether it exists (dedupe), or the whole row. */
const byProviderId = and(eq(messages.channelId, sql.placeholder("channel")), eq(messages.platformMessageId, sql.placeholder("providerId")));
const messageIdByProviderId = preparedPerDb((db) => db.select({ id: messages.id }).from(messages).where(byProviderId).prepare("ingest_message_id_by_provider_id"));
const messageByProviderId = preparedPerDb((db) => db.select().from(messages).where(byProviderId).prepare("ingest_message_by_provider_id"));

function addressOf(party: InboundParty): string | null {
  return party.address ?? party.user_id;
}

/**
 * The project an inbound item belongs to: the sandbox tester's joined project, else the project whose
 * own channel it is. A channel connected after the project's first one is linked to no project row
 * (projects.channel_id holds one channel): it then belongs to its organization's only project, or to
 * the project already messaging on it; with neither, there is no project to store it in.
 */
async function projectFor(db: Db, channel: ChannelRow, party: InboundParty): Promise<ProjectRow | null> {
  if (channel.isSandbox) {
    const address = addressOf(party);
    return address ? participantProject(db, channel, address) : null;
  }
  if (channel.projectId) {
    const [owner] = await projectById(db).execute({ id: channel.projectId });
    if (owner) return owner;
  }
  // Channels connected before channels carried their project: the project pointing at the channel.
  const [project] = await db.select().from(projects).where(eq(projects.channelId, channel.id)).orderBy(asc(projects.id)).limit(1);
  if (project) return project;
  if (!channel.organizationId) return null;
  const candidates = await db.select().from(projects).where(eq(projects.organizationId, channel.organizationId));
  if (candidates.length === 1) return candidates[0]!;
  const [recent] = await db.select({ projectId: messages.projectId }).from(messages).where(eq(messages.channelId, channel.id)).orderBy(desc(messages.id)).limit(1);
  return candidates.find((p) => p.id === recent?.projectId) ?? null;
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
  // A sender known by number AND user id: the user id alone (a username-only message later, or a
  // status naming only recipient_user_id) must resolve to the same contact.
  if (party.address && party.user_id) {
    await aliasIdentity(db, project.organizationId, { platform: channel.platform, userId: party.user_id }, contact.id);
  }
  const conversation = await ensureConversation(db, project.id, contact.id, channel.id, now);
  return { contact, conversation };
}

async function applyMessage(db: Db, channel: ChannelRow, event: Event<"message">, now: Date, options: ApplyOptions): Promise<ApplyOutcome> {
  const address = addressOf(event.from);
  if (!address) return "no_project";
  const message = event.message;
  if (message.type === "edit" || message.type === "revoke") {
    const project = await projectFor(db, channel, event.from);
    if (!project) return "no_project";
    return db.transaction(async (tx) => {
      const target = await mutationTarget(tx, channel.id, message);
      if (!target) return options.final ? "duplicate" : "mutation_pending";
      const changed = await mutateOriginal(tx, target, message, now);
      if (!changed) return "duplicate";
      const { contact, conversation } = await contactAndConversation(tx, project, channel, event.from, now);
      // The event gets its own message_id: receivers deduplicate on it, and the original's
      // message.received has the stored message's id already. metadata.stored_message_id names it.
      const eventMessageId = newId("message", now.getTime());
      await emitReceived(tx, project, channel, conversation, contact, event.from, eventMessageId, message, now, changed.id);
      return "mutated";
    });
  }

  // A provider retry of a stored message changes nothing: in particular an old `join <code>` must not
  // move a tester back to a project they have left since.
  const [seen] = await messageIdByProviderId(db).execute({ channel: channel.id, providerId: message.id });
  if (seen) return "duplicate";

  // The join, the message, the opt-in and participant.joined commit together: a failure retries all
  // of it (a join committed alone would be "already joined" on the retry, and never announced).
  return db.transaction(async (tx) => {
    let joined = false;
    const code = channel.isSandbox ? joinCodeIn(message.text) : null;
    if (code) {
      const outcome = await joinProject(tx, channel, address, code, now);
      // An unknown code from a tester who joined a project already is an ordinary message ("join us
      // tomorrow"); from anyone else it is stored nowhere (projectFor finds no project). A full project
      // refuses the join and the message.
      if (outcome.kind === "full") return "join_rejected";
      if (outcome.kind === "joined") joined = !outcome.alreadyJoined;
    }
    const project = await projectFor(tx, channel, event.from);
    if (!project) return code ? "join_rejected" : "no_project";
    return storeMessage(tx, project, channel, event, joined, now);
  });
}

async function storeMessage(tx: Db, project: ProjectRow, channel: ChannelRow, event: Event<"message">, joined: boolean, now: Date): Promise<ApplyOutcome> {
  const message = event.message;
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
  const id = newId("message", now.getTime());
  const receivedAt = new Date(message.received_at);
  // The message (unless the provider sent it before) and, only then, the conversation's touch: one statement.
  const stored = await insertMessageTouchingConversation(
    tx,
    {
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
      media: message.media ? mediaOf(message.media, id) : null,
      providerTimestamp: receivedAt,
      timestamp: receivedAt,
      createdAt: now,
      updatedAt: now,
    },
    receivedAt,
    { skipDuplicate: true },
  );
  if (!stored) return "duplicate";
  const files = message.attachments ?? (message.media ? [message.media] : []);
  const queue = currentJobQueue();
  // With files, message.received waits (bounded) for them to be cached, then goes out with their URLs.
  const eventId = await emitReceived(tx, project, channel, conversation, contact, event.from, id, message, now, undefined, files.length > 0 && queue !== null);
  if (files.length && queue) {
    await registerInboundMedia(tx, queue, { projectId: project.id, messageId: id, files, eventId, now });
    await refreshMessageMedia(tx, { publicUrl: env().publicUrl }, id, now);
  }
  return joined ? "joined" : "stored";
}

async function emitReceived(db: Db, project: ProjectRow, channel: ChannelRow, conversation: ConversationRow, contact: ContactRow, from: InboundParty, messageId: string, message: NormalizedInboundMessage, now: Date, storedMessageId?: string, defer = false): Promise<string | null> {
  const { route, deliver } = inboundRoute(project, channel, conversation);
  const payload = messageReceivedPayload({ project, channel, conversation, contact, from, messageId, message, storedMessageId });
  return emitEvent(db, project, "message.received", payload, now, { route, deliver, defer, dedupeKey: `received:${channel.id}:${message.id}` });
}

/** The stored message an edit or delete names (by provider id), or null when it is not stored (yet). */
async function mutationTarget(db: Db, channelId: string, message: NormalizedInboundMessage): Promise<MessageRow | null> {
  const originalId = message.edit?.original_message_id ?? message.revoke?.original_message_id;
  if (!originalId) return null;
  const [original] = await messageByProviderId(db).execute({ channel: channelId, providerId: originalId });
  return original ?? null;
}

/**
 * Edits update the stored message; revokes clear its content (spec: Replies, edits, deletes). Returns
 * the changed row, or null when there is nothing (left) to change: a deleted message, an edit applied
 * already (provider retry) or older than the one applied last (deliveries out of order).
 */
async function mutateOriginal(db: Db, original: MessageRow, message: NormalizedInboundMessage, now: Date): Promise<MessageRow | null> {
  if (original.status === "deleted") return null;
  if (message.type === "revoke") {
    const [row] = await db
      .update(messages)
      .set({ content: null, body: { id: original.platformMessageId, type: original.type, revoked: true, revoke_id: message.id }, media: null, status: "deleted", deletedAt: now, updatedAt: now })
      .where(eq(messages.id, original.id))
      .returning();
    return row!;
  }
  const body = original.body as Record<string, unknown>;
  const applied = Array.isArray(body.edit_ids) ? (body.edit_ids as unknown[]) : [];
  if (applied.includes(message.id)) return null;
  if (typeof body.edited_at === "string" && body.edited_at > message.received_at) return null;
  const text = message.edit!.message.text.body;
  const marks = { edited: true, edited_at: message.received_at, edit_ids: [...applied, message.id].slice(-50) };
  // A media message's editable text is its caption (its content stays as it was: null).
  const bodyMedia = body.media && typeof body.media === "object" ? (body.media as Record<string, unknown>) : null;
  const changes = original.media
    ? { media: { ...original.media, caption: text }, body: { ...body, ...(bodyMedia ? { media: { ...bodyMedia, caption: text } } : {}), ...marks } }
    : { content: text, body: { ...body, text, ...marks } };
  const [row] = await db
    .update(messages)
    .set({
      ...changes,
      editedAt: now,
      updatedAt: now,
    })
    .where(eq(messages.id, original.id))
    .returning();
  return row!;
}

async function applyProviderStatus(db: Db, channel: ChannelRow, event: Event<"status">): Promise<ApplyOutcome> {
  if (event.platform_message_id === "") return applyWatermark(db, channel, event);
  const [message] = await messageByProviderId(db).execute({ channel: channel.id, providerId: event.platform_message_id });
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

/**
 * A read or delivery receipt that names no message, only a watermark (Messenger): every outbound
 * message to that user on the channel the provider accepted at or before the watermark moves forward.
 */
async function applyWatermark(db: Db, channel: ChannelRow, event: Event<"status">): Promise<ApplyOutcome> {
  if (event.status !== "read" && event.status !== "delivered") return "status_ignored";
  const recipient = event.recipient_user_id ?? event.recipient_id;
  if (!recipient) return "status_ignored";
  const section = event.raw[event.status === "read" ? "read" : "delivery"];
  const mark = typeof section === "object" && section !== null ? Number((section as Record<string, unknown>).watermark) : NaN;
  const watermark = Number.isFinite(mark) && mark > 0 ? new Date(mark < 1e11 ? mark * 1000 : mark) : new Date(event.timestamp);
  const target: DeliveryStatus = event.status;
  const candidates = await db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.channelId, channel.id),
        eq(messages.direction, "outbound"),
        eq(messages.recipient, recipient),
        isNotNull(messages.platformMessageId),
        lte(messages.timestamp, watermark),
      ),
    )
    .orderBy(asc(messages.id));
  let moved = false;
  for (const message of candidates) {
    if (!canMove(message.status, target)) continue;
    const changed = await applyStatus(db, message, { status: target, at: new Date(event.timestamp), recipientUserId: event.recipient_user_id, recipientId: event.recipient_id, raw: event.raw });
    moved = changed || moved;
  }
  return moved ? "status" : "status_ignored";
}

/**
 * Business-app echoes update what we store and emit no message.received. The echo of our own send
 * (B/C report "sent" as an echo) finds its row by provider id and changes nothing; one that may be our
 * send whose provider id is not stored yet waits, so it never becomes a second row (nor makes the send
 * job's own update collide with it).
 */
async function applyEcho(db: Db, channel: ChannelRow, event: Event<"echo">, now: Date, options: ApplyOptions): Promise<ApplyOutcome> {
  const message = event.message;
  if (message.type === "edit" || message.type === "revoke") {
    const target = await mutationTarget(db, channel.id, message);
    if (!target) return options.final ? "echo" : "mutation_pending";
    await mutateOriginal(db, target, message, now);
    return "echo";
  }
  const [known] = await messageIdByProviderId(db).execute({ channel: channel.id, providerId: message.id });
  if (known) return "echo";
  const recipient = addressOf(event.to);
  if (!options.final && recipient) {
    const [inFlight] = await db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.channelId, channel.id), eq(messages.direction, "outbound"), eq(messages.recipient, recipient), isNull(messages.platformMessageId), eq(messages.status, "queued")))
      .limit(1);
    if (inFlight) return "echo_pending";
  }
  const project = await projectFor(db, channel, event.to);
  if (!project) return "no_project";
  await db.transaction(async (tx) => {
    const { contact, conversation } = await contactAndConversation(tx, project, channel, event.to, now);
    const at = new Date(message.received_at);
    const id = newId("message", now.getTime());
    await tx
      .insert(messages)
      .values({
        id,
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
        recipient,
        replyTo: message.replied_to?.message_id ?? null,
        media: message.media ? mediaOf(message.media, id) : null,
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
  const party = partyOfCall(event.call, channel);
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

/**
 * The customer on a call item: `recipient_id` on status items; on calls items the side that is not
 * the business (`to` for business-initiated calls or when `from` is the channel's own number).
 */
function partyOfCall(call: Record<string, unknown>, channel: ChannelRow): InboundParty {
  const digits = (v: unknown) => (typeof v === "string" && v !== "" ? v.replace(/[^\d]/g, "") || null : null);
  const from = digits(call.from);
  const to = digits(call.to);
  const recipient = digits(call.recipient_id);
  const business = digits(channel.phoneNumber);
  let customer: string | null;
  if (recipient) customer = recipient;
  else if (call.direction === "BUSINESS_INITIATED" || (from !== null && from === business)) customer = to ?? from;
  else customer = from ?? to;
  return { address: customer, user_id: null, parent_user_id: null, username: null, name: null };
}

/**
 * A number (or business-scoped user id) migration: the contacts known by the previous identity keep
 * their id, the new identity resolves to them from now on, and contact.identity.updated tells each
 * project. On the sandbox the tester's participation follows the new number.
 */
async function applyIdentityChange(db: Db, channel: ChannelRow, event: Event<"identity_change">, now: Date): Promise<ApplyOutcome> {
  const previous = event.previous;
  const current = event.current;
  const who = or(previous.address ? eq(contacts.phone, `+${previous.address}`) : undefined, previous.user_id ? eq(contacts.userId, previous.user_id) : undefined);
  if (!who) return "identity";
  const scope = channel.organizationId ? or(eq(contacts.channelId, channel.id), eq(contacts.organizationId, channel.organizationId)) : eq(contacts.channelId, channel.id);
  const matches = await db.select().from(contacts).where(and(scope, who));
  if (channel.isSandbox && previous.address && current.address && previous.address !== current.address) {
    await moveParticipant(db, channel, previous.address, current.address);
  }
  for (const contact of matches) {
    const phone = current.address ? `+${current.address}` : contact.phone;
    const userId = current.user_id ?? contact.userId;
    // Both identities point at the contact: the new number, and the new user id on its own.
    if (current.address) await aliasIdentity(db, contact.organizationId, { platform: channel.platform, phone: current.address }, contact.id);
    if (current.user_id) await aliasIdentity(db, contact.organizationId, { platform: channel.platform, userId: current.user_id }, contact.id);
    if (phone === contact.phone && userId === contact.userId) continue;
    await db
      .update(contacts)
      .set({ phone, userId, parentUserId: current.parent_user_id ?? contact.parentUserId, updatedAt: now })
      .where(and(eq(contacts.projectId, contact.projectId), eq(contacts.id, contact.id)));
    await emitEvent(db, { id: contact.projectId }, "contact.identity.updated", {
      contact_id: contact.id,
      channel_id: channel.id,
      previous: { phone: contact.phone, user_id: contact.userId },
      current: { phone, user_id: userId },
      timestamp: event.timestamp,
    }, now, { dedupeKey: `identity:${contact.id}:${event.timestamp}` });
  }
  return "identity";
}
