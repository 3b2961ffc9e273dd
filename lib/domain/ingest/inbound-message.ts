import { newId } from "@/lib/ids";
import type { ProjectRow, SystemCtx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { recordOptIn, type ContactRow } from "@/lib/domain/contacts/identity";
import { emitEvent, inboundRoute, type EventInput, type EventRoute } from "@/lib/domain/events";
import { messageRow } from "@/lib/domain/messages/rows";
import { refreshMessageMedia, registerInboundMedia } from "@/lib/domain/media/cache";
import type { ApplyOptions, ApplyOutcome } from "./apply";
import { arrivalFacts } from "@/lib/domain/messages/arrival";
import { messageReceivedPayload, mediaOf, type ReceivedPayloadInput } from "./payload";
import { joinCodeIn, joinProject } from "./sandbox-join";
import { mutateOriginal, mutationTarget } from "./mutations";
import { inboundMessageClaims, inboundMessageJobs, inboundMessageStored, type InboundClaim } from "./reactions";
import { routingOwner } from "@/lib/domain/conversations/thread-owner";
import { addressOf, contactAndConversation, projectFor, type InboundOf } from "./resolve";
import { publishInboxEvent, type InboxEvent } from "@/lib/domain/inbox-live";
import { insertInboundMessageAnnounced, insertInboundMessageRecorded } from "./message-announced";

/** An inbox event a transaction made, published once it committed (README "Inbox: live updates"). */
interface Committed {
  projectId: string;
  event: InboxEvent;
}

/**
 * A customer's message: stored once (provider retries change nothing) with its contact, conversation
 * and message.received; on the shared sandbox `join <code>` joins the tester to a project first. An
 * edit or delete changes the stored original and is announced as a message.received of its own.
 */
export async function applyMessage(
  ctx: SystemCtx,
  channel: ChannelRow,
  event: InboundOf<"message">,
  options: ApplyOptions,
  /**
   * Read with the channel (apply.ts channelOf): whether it is stored already (the dedupe check), and
   * the project the sender wrote to before this message (null: none, or not known from that read).
   */
  read: { seen: boolean; project: ProjectRow | null },
): Promise<ApplyOutcome> {
  const address = addressOf(event.from);
  if (!address) return "no_project";
  const message = event.message;
  if (message.type === "edit" || message.type === "revoke") return applyMutation(ctx, channel, event, options);

  // A provider retry of a stored message changes nothing: in particular an old `join <code>` must not
  // move a tester back to a project they have left since.
  if (read.seen) return "duplicate";

  // The join, the message, the opt-in and participant.joined commit together: a failure retries all
  // of it (a join committed alone would be "already joined" on the retry, and never announced).
  const committed: Committed[] = [];
  const outcome = await ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx };
    let joined = false;
    const code = channel.isSandbox ? joinCodeIn(message.text) : null;
    // A feature may claim the text (a registration link's token, docs/spec/decisions.md "Registration
    // intents"); on the sandbox a claim joins the tester to its project as that project's code would.
    const claim = code ? null : await inboundMessageClaims.first(txCtx, { channel, text: message.text });
    const joinCode = code ?? (channel.isSandbox && claim ? claim.joinCode : null);
    if (joinCode) {
      const outcome = await joinProject(txCtx, { channel, address, code: joinCode });
      // An unknown code from a tester who joined a project already is an ordinary message ("join us
      // tomorrow"); from anyone else it is stored nowhere (projectFor finds no project). A full project
      // refuses the join and the message.
      if (outcome.kind === "full") return "join_rejected";
      if (outcome.kind === "joined") joined = !outcome.alreadyJoined;
    }
    // A join or a claim may have just changed the tester's project: only then is it read again.
    const project = (!joinCode && read.project) || (await projectFor(tx, channel, event.from));
    if (!project) return code ? "join_rejected" : "no_project";
    return storeMessage(txCtx, project, channel, event, { joined, claim: claim?.projectId === project.id ? claim : null }, committed);
  });
  for (const { projectId, event } of committed) publishInboxEvent(projectId, event);
  return outcome;
}

async function applyMutation(ctx: SystemCtx, channel: ChannelRow, event: InboundOf<"message">, options: ApplyOptions): Promise<ApplyOutcome> {
  const message = event.message;
  const project = await projectFor(ctx.db, channel, event.from);
  if (!project) return "no_project";
  const committed: Committed[] = [];
  const outcome = await ctx.db.transaction(async (tx): Promise<ApplyOutcome> => {
    const txCtx = { ...ctx, db: tx };
    const target = await mutationTarget(tx, channel.id, message);
    if (!target) return options.final ? "duplicate" : "mutation_pending";
    const changed = await mutateOriginal(tx, target, message, ctx.now);
    if (!changed) return "duplicate";
    const { contact, conversation } = await contactAndConversation(txCtx, project, channel, event.from);
    // The event gets its own message_id: receivers deduplicate on it, and the original's
    // message.received has the stored message's id already. metadata.stored_message_id names it.
    const messageId = newId("message", ctx.now.getTime());
    await emitReceived(txCtx, { project, channel, conversation, contact, from: event.from, messageId, message, storedMessageId: changed.id });
    committed.push({ projectId: project.id, event: { type: "message.updated", conversation_id: conversation.id, id: changed.id } });
    return "mutated";
  });
  for (const { projectId, event } of committed) publishInboxEvent(projectId, event);
  return outcome;
}

/** Inside the message's transaction (ctx.db): the row, its files and its message.received. */
async function storeMessage(
  ctx: SystemCtx,
  project: ProjectRow,
  channel: ChannelRow,
  event: InboundOf<"message">,
  arrival: { joined: boolean; claim: InboundClaim | null },
  committed: Committed[],
): Promise<ApplyOutcome> {
  const { now } = ctx;
  const message = event.message;
  const receivedAt = new Date(message.received_at);
  // The conversation's last message moves to this one with the conversation's own upsert. Should the
  // insert below find the provider sent it before (a race the dedupe read missed), the move was to
  // that same message's time, and it changes nothing.
  const found = await contactAndConversation(ctx, project, channel, event.from, receivedAt);
  const conversation = found.conversation;
  const id = newId("message", now.getTime());
  // The claim first, so this message's own events already carry what it changes (the customer reference).
  const contact = arrival.claim ? await arrival.claim.complete({ contact: found.contact, messageId: id }) : found.contact;
  const joined = arrival.joined;
  if (joined) await announceJoin(ctx, { project, channel, contact, providerMessageId: message.id, optIn: !arrival.claim });
  // The routing and handoff the message arrived under, stored with it (GET /messages/{id}/automations explains from them).
  const routed = arrivalFacts(project, channel, conversation);
  const place = { projectId: project.id, conversationId: conversation.id, contactId: contact.id, channelId: channel.id };
  const row = messageRow(
    place,
    {
      id,
      direction: "inbound",
      type: message.type,
      status: "delivered",
      content: message.text,
      body: message as unknown as Record<string, unknown>,
      at: receivedAt,
      now,
    },
    {
      platformMessageId: message.id,
      replyTo: message.replied_to?.message_id ?? null,
      media: message.media ? mediaOf(message.media, id) : null,
      providerTimestamp: receivedAt,
      ...routed,
    },
  );
  const files = message.attachments ?? (message.media ? [message.media] : []);
  // With files, message.received waits (bounded) for them to be cached, then goes out with their URLs.
  const received: ReceivedInput = { project, channel, conversation, contact, from: event.from, messageId: id, message, defer: files.length > 0 };
  const route = await receivedRoute(ctx, received);
  const receivedNow = receivedEvent(ctx, received, route);
  // The message, unless the provider sent it before, and its message.received, in one statement: with
  // its delivery when the event goes to the webhook now, on its own when not (another route, or files).
  const alongside = ctx.withItemWrite ?? null;
  // The features' jobs (an automation's evaluation): the first in the message's statement when it goes
  // to no webhook now (FLOWS routes so), the others after it, in the transaction.
  const jobs = inboundMessageJobs.jobs({ messageId: id, messageType: message.type, arrival: routed });
  const announce = route.deliver && !received.defer;
  const withMessage = announce ? null : (jobs[0] ?? null);
  const stored = announce
    ? await insertInboundMessageAnnounced(ctx, row, alongside, receivedNow)
    : await insertInboundMessageRecorded(ctx, row, alongside, receivedNow, withMessage);
  if (alongside) alongside.written = true;
  if (!stored.stored) return "duplicate";
  for (const job of jobs) if (job !== withMessage) await ctx.ports.queue.send(job.name, job.data, { tx: ctx.db });
  const eventId = stored.eventId;
  if (files.length) {
    await registerInboundMedia(ctx, { projectId: project.id, messageId: id, files, eventId, now });
    await refreshMessageMedia(ctx, id);
  }
  await inboundMessageStored.run(ctx, {
    project,
    channel,
    conversation,
    contact,
    messageId: id,
    message,
    fromAddress: event.from.address,
    receivedAt,
    arrival: routed,
  });
  committed.push({ projectId: project.id, event: { type: "message.created", conversation_id: conversation.id, id } });
  return joined ? "joined" : "stored";
}

/** participant.joined (with the contact's reference, set by a registration link); the opt-in unless a claim (the link) recorded it. */
async function announceJoin(
  ctx: SystemCtx,
  input: { project: ProjectRow; channel: ChannelRow; contact: ContactRow; providerMessageId: string; optIn: boolean },
) {
  const { project, channel, contact } = input;
  if (input.optIn) await recordOptIn(ctx.db, project.id, contact.id, "sandbox_join", ctx.now);
  await emitEvent(ctx, {
    project,
    type: "participant.joined",
    payload: {
      project_id: project.id,
      channel_id: channel.id,
      contact_id: contact.id,
      phone: contact.phone,
      user_id: contact.userId,
      contact_reference: contact.referenceId ?? contact.id,
      joined_at: ctx.now.toISOString(),
    },
    at: ctx.now,
    dedupeKey: `join:${input.providerMessageId}`,
  });
}

/** A message.received to emit (payload.ts says what it carries). */
interface ReceivedInput extends ReceivedPayloadInput {
  /** Hold the delivery until the message's files are cached (media.release). */
  defer?: boolean;
}

/** message.received (see receivedEvent), emitted on its own. */
async function emitReceived(ctx: SystemCtx, input: ReceivedInput): Promise<string | null> {
  return emitEvent(ctx, receivedEvent(ctx, input, await receivedRoute(ctx, input)));
}

/** Where message.received goes: the channel's effective routing (and, under AGENT, the thread's owner). */
async function receivedRoute(ctx: SystemCtx, input: ReceivedInput): Promise<{ route: EventRoute; deliver: boolean }> {
  const owner = await routingOwner(ctx.db, input.project, input.channel, input.contact.id);
  return inboundRoute(input.project, input.channel, input.conversation, owner);
}

/** message.received, routed as `route` says; deduplicated per provider message. */
function receivedEvent(ctx: SystemCtx, input: ReceivedInput, route: { route: EventRoute; deliver: boolean }): EventInput {
  return {
    project: input.project,
    type: "message.received",
    payload: messageReceivedPayload(input),
    at: ctx.now,
    route: route.route,
    deliver: route.deliver,
    defer: input.defer ?? false,
    dedupeKey: `received:${input.channel.id}:${input.message.id}`,
  };
}
