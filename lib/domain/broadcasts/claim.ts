/**
 * The sender's next batch: recipients already written as messages but never handed to the provider
 * (a refusal to retry, or a run cut short), then pending ones. Pending recipients are
 * judged here (a contact and, when the project requires it, an active opt-in: else `skipped
 * no_opt_in`) and become queued messages, all in one transaction, so a crash leaves either pending
 * recipients or queued messages to pick up again, never half of each.
 */
import { and, asc, eq, gt, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { broadcastRecipients, broadcasts, messages, optIns } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { upsertContact } from "@/lib/domain/contacts/identity";
import { ensureConversations, touchConversations } from "@/lib/domain/conversations";
import { messageRow } from "@/lib/domain/messages/rows";
import { templateShape } from "@/lib/shared/templates/validate";
import type { TemplateRow } from "@/lib/domain/templates/serialize";
import type { OutboundContent } from "@/lib/ports/provider/outbound";
import type { Db } from "@/lib/ports/db/types";
import { newId } from "@/lib/ids";
import { anyOf } from "@/lib/ports/db/bulk";
import { deleteUnsentMessages, insertMessageRows } from "@/lib/domain/messages/row-writes";
import { publishInboxEvents } from "@/lib/domain/inbox-live";
import { componentsFor } from "@/lib/shared/broadcasts/parameters";
import { contactsOfPhones } from "./recipients";
import type { BroadcastRecipientRow, BroadcastRow } from "./serialize";

/** One message to hand to the provider. */
export interface Outgoing {
  recipientId: string;
  messageId: string;
  to: string;
  attempts: number;
  content: OutboundContent;
}

export interface Claim {
  broadcast: BroadcastRow;
  channel: ChannelRow;
  template: TemplateRow;
}

/** A claimed batch, and where the next claim starts (the last pending recipient this one took). */
export interface Claimed {
  outgoing: Outgoing[];
  cursor: string | null;
}

/**
 * The next batch. `retries: false` skips the look for queued messages not handed over (it reads every
 * queued recipient of the broadcast, and those wait for their status callbacks: thousands while a big
 * run goes on), for a sender that knows it left none; `sending` is the batch it has in hand, queued
 * too, so not a retry. `after` is the cursor the previous claim of this run returned: pending
 * recipients are taken in id order, so none is left below it, and the index scan starts there instead
 * of walking the entries every recipient claimed so far left behind under `pending` (without a vacuum
 * in between, 60-90 ms a batch late in a 100,000 run). A batch whose recipients were all skipped
 * (no opt-in) is followed by the next one, so an empty batch means nothing is left to claim.
 */
export async function claimBatch(
  ctx: Ctx,
  claim: Claim,
  size: number,
  { sending = [], retries: lookForRetries = true, after = null }: { sending?: Outgoing[]; retries?: boolean; after?: string | null } = {},
): Promise<Claimed> {
  const inHand = new Set(sending.map((o) => o.messageId));
  const retries = lookForRetries ? (await unsent(ctx.db, claim.broadcast.id, size + inHand.size)).filter((o) => !inHand.has(o.messageId)).slice(0, size) : [];
  let cursor = after;
  while (retries.length < size) {
    const pending = await pendingAfter(ctx.db, claim.broadcast.id, cursor, size - retries.length);
    if (pending.length === 0) break;
    cursor = pending.at(-1)!.id;
    const queued = await queueMessages(ctx, claim, pending);
    if (queued.length > 0) return { outgoing: [...retries, ...queued], cursor };
  }
  return { outgoing: retries, cursor };
}

/** Pending recipients in id order, from after `cursor`. */
function pendingAfter(db: Db, broadcastId: string, cursor: string | null, limit: number): Promise<BroadcastRecipientRow[]> {
  return (
    db
      .select()
      .from(broadcastRecipients)
      .where(
        and(
          eq(broadcastRecipients.broadcastId, broadcastId),
          eq(broadcastRecipients.status, "pending"),
          cursor === null ? undefined : gt(broadcastRecipients.id, cursor),
        ),
      )
      // The same order as by id alone (both are fixed here), spelled as the (broadcast_id, status, id)
      // index's key: ordered by id, a planner that believes most rows are pending walks the primary key
      // and filters, past every recipient already sent (70 ms a batch late in a 100,000 run).
      .orderBy(asc(broadcastRecipients.broadcastId), asc(broadcastRecipients.status), asc(broadcastRecipients.id))
      .limit(limit)
  );
}

/**
 * A claimed batch the sender will not send (the run was paused or cancelled meanwhile): its messages,
 * never handed to the provider, are deleted and its recipients are pending again, or skipped
 * (cancelled) when the broadcast was cancelled. One transaction, so they are either claimed or back.
 */
export async function releaseBatch(ctx: Pick<Ctx, "db" | "ports">, broadcastId: string, batch: Pick<Outgoing, "messageId">[]): Promise<void> {
  if (batch.length === 0) return;
  const now = ctx.ports.clock.now();
  await ctx.db.transaction(async (tx) => {
    const [broadcast] = await tx.select({ status: broadcasts.status }).from(broadcasts).where(eq(broadcasts.id, broadcastId));
    // Only messages the provider never saw: still queued, without its id, and never handed to a send
    // (one that was may have reached the customer: attempts.ts settles it as outcome_unknown instead).
    const unsentIds = (
      await tx
        .select({ id: messages.id })
        .from(messages)
        .innerJoin(broadcastRecipients, eq(broadcastRecipients.messageId, messages.id))
        .where(
          and(
            inArray(
              messages.id,
              batch.map((o) => o.messageId),
            ),
            eq(messages.status, "queued"),
            isNull(messages.platformMessageId),
            isNull(broadcastRecipients.dispatchedAt),
          ),
        )
    ).map((row) => row.id);
    if (unsentIds.length === 0) return;
    const back = broadcast?.status === "CANCELLED" ? { status: "skipped" as const, skipReason: "cancelled" } : { status: "pending" as const };
    await tx
      .update(broadcastRecipients)
      .set({ ...back, messageId: null, updatedAt: now })
      .where(and(eq(broadcastRecipients.broadcastId, broadcastId), inArray(broadcastRecipients.messageId, unsentIds)));
    await deleteUnsentMessages(tx, unsentIds);
  });
}

/**
 * A recipient whose message is still queued without the provider's id: never handed over yet
 * (`dispatched` false: unsent) or handed over with no answer (`dispatched` true: attempts.ts settles it).
 */
export function queuedWithoutAnswer(broadcastId: string, dispatched: boolean): SQL | undefined {
  return and(
    eq(broadcastRecipients.broadcastId, broadcastId),
    eq(broadcastRecipients.status, "queued"),
    dispatched ? isNotNull(broadcastRecipients.dispatchedAt) : isNull(broadcastRecipients.dispatchedAt),
    eq(messages.status, "queued"),
    isNull(messages.platformMessageId),
  );
}

/** Queued by an earlier batch and never handed to the provider (a refusal to retry, a batch a slice did not get to). */
export async function unsent(db: Db, broadcastId: string, limit: number): Promise<Outgoing[]> {
  const rows = await db
    .select({
      recipientId: broadcastRecipients.id,
      messageId: messages.id,
      to: messages.recipient,
      attempts: broadcastRecipients.attempts,
      body: messages.body,
    })
    .from(broadcastRecipients)
    .innerJoin(messages, eq(messages.id, broadcastRecipients.messageId))
    .where(queuedWithoutAnswer(broadcastId, false))
    .orderBy(asc(broadcastRecipients.id))
    .limit(limit);
  return rows.map((r) => ({
    recipientId: r.recipientId,
    messageId: r.messageId,
    to: r.to!,
    attempts: r.attempts,
    content: r.body as unknown as OutboundContent,
  }));
}

async function queueMessages(ctx: Ctx, claim: Claim, pending: BroadcastRecipientRow[]): Promise<Outgoing[]> {
  // A recipient added by contact (or whose number was a contact then) carries its contact id; only
  // the others are looked up, in case the number has become a contact since.
  const known = await contactsOfPhones(
    ctx,
    pending.filter((r) => !r.contactId).map((r) => r.to),
  );
  const contactOf = (r: BroadcastRecipientRow) => r.contactId ?? known.get(r.to) ?? null;
  const optedIn = ctx.project.requireOptIn
    ? await activeOptIns(
        ctx.db,
        ctx.project.id,
        pending.flatMap((r) => contactOf(r) ?? []),
      )
    : null;
  const skipped: string[] = [];
  const sendable: (BroadcastRecipientRow & { contact: string | null })[] = [];
  for (const r of pending) {
    const contact = contactOf(r);
    if (optedIn && !(contact && optedIn.has(contact))) skipped.push(r.id);
    else sendable.push({ ...r, contact });
  }
  const shape = templateShape(claim.template.components, { parameter_format: claim.template.parameterFormat });
  let created: { messageId: string; conversationId: string }[] = [];
  const outgoing = await ctx.db.transaction(async (tx) => {
    if (skipped.length > 0) {
      await tx
        .update(broadcastRecipients)
        .set({ status: "skipped", skipReason: "no_opt_in", updatedAt: ctx.now })
        .where(and(inArray(broadcastRecipients.id, skipped), eq(broadcastRecipients.status, "pending")));
    }
    if (sendable.length === 0) return [];
    const places = await placesOf({ ...ctx, db: tx }, claim.channel, sendable);
    const outgoing: Outgoing[] = sendable.map((r) => {
      const components = componentsFor(shape, r.parameters);
      const content: OutboundContent = {
        kind: "template",
        template: { name: claim.template.name, language: claim.template.language, ...(components ? { components } : {}) },
      };
      return { recipientId: r.id, messageId: newId("message", ctx.now.getTime()), to: r.to, attempts: r.attempts, content };
    });
    await insertMessageRows(
      tx,
      outgoing.map((o) => {
        const place = places.get(o.to)!;
        const facts = {
          id: o.messageId,
          direction: "outbound" as const,
          type: "template",
          status: "queued" as const,
          content: null,
          body: { ...o.content },
          at: ctx.now,
          now: ctx.now,
        };
        return {
          ...messageRow({ projectId: ctx.project.id, channelId: claim.channel.id, ...place }, facts, {
            recipient: o.to,
            idempotencyKey: `broadcast:${o.recipientId}`,
          }),
          broadcastId: claim.broadcast.id,
        };
      }),
    );
    await markQueued(tx, outgoing, places, ctx.now);
    await touchConversations(tx, [...new Set([...places.values()].map((p) => p.conversationId))], ctx.now);
    created = outgoing.map((o) => ({ messageId: o.messageId, conversationId: places.get(o.to)!.conversationId }));
    return outgoing;
  });
  // The batch's messages, once committed: the inbox publisher gathers them into a few publishes.
  publishInboxEvents(
    ctx.project.id,
    created.map((c) => ({ type: "message.created", conversation_id: c.conversationId, id: c.messageId })),
  );
  return outgoing;
}

/** Each recipient's contact and conversation: contacts created one by one only for new numbers (projects without require_opt_in), conversations in one upsert. */
async function placesOf(
  ctx: Ctx,
  channel: ChannelRow,
  rows: { to: string; contact: string | null }[],
): Promise<Map<string, { contactId: string; conversationId: string }>> {
  const contactOf = new Map<string, string>();
  for (const r of rows) {
    const id =
      r.contact ??
      (
        await upsertContact(ctx.db, {
          projectId: ctx.project.id,
          organizationId: ctx.org.id,
          channelId: channel.id,
          platform: channel.platform,
          phone: r.to,
          now: ctx.now,
        })
      ).id;
    contactOf.set(r.to, id);
  }
  const opened = await ensureConversations(ctx.db, ctx.project.id, [...new Set(contactOf.values())], channel.id, ctx.now);
  const conversationOf = new Map(opened.map((c) => [c.contactId, c.id]));
  const out = new Map<string, { contactId: string; conversationId: string }>();
  for (const [to, contactId] of contactOf) out.set(to, { contactId, conversationId: conversationOf.get(contactId)! });
  return out;
}

async function activeOptIns(db: Db, projectId: string, contactIds: string[]): Promise<Set<string>> {
  if (contactIds.length === 0) return new Set();
  const rows = await db
    .select({ contactId: optIns.contactId })
    .from(optIns)
    .where(and(eq(optIns.projectId, projectId), eq(optIns.status, "active"), anyOf(optIns.contactId, contactIds)));
  return new Set(rows.map((r) => r.contactId));
}

async function markQueued(tx: Db, outgoing: Outgoing[], places: Map<string, { contactId: string }>, now: Date): Promise<void> {
  const rows = outgoing.map((o) => ({ id: o.recipientId, message_id: o.messageId, contact_id: places.get(o.to)!.contactId }));
  await tx.execute(sql`
    update ${broadcastRecipients} set status = 'queued', message_id = v.message_id, contact_id = v.contact_id, updated_at = ${now.toISOString()}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id text, message_id text, contact_id text)
    where ${broadcastRecipients.id} = v.id and ${anyOf(
      broadcastRecipients.id,
      rows.map((r) => r.id),
    )} and ${broadcastRecipients.status} = 'pending'`);
}
