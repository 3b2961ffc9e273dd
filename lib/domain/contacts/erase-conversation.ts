import { and, eq, inArray, or, sql } from "drizzle-orm";
import { conversationNotes, conversationReads, conversations, flowDispatches, flowSubmissions, media, messages, threadControlStates } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import type { ErasureTarget } from "./erase-target";

export interface ConversationErasure {
  messages: number;
  /** Storage keys of the contact's cached files, deleted after commit by contacts.erase-files. */
  storageKeys: string[];
  /** Keys of files whose media.cache job may still be writing them: deleted again later. */
  cachingKeys: string[];
  channelIds: string[];
  /** The tombstoned messages' and the deleted conversations' ids: job rows name the contact by them. */
  messageIds: string[];
  conversationIds: string[];
  flowSubmissions: number;
  /** The team's private notes on the conversation (they may quote the customer), deleted. */
  notes: number;
}

/**
 * Messages become content-free tombstones (ids, times, direction, type, status stay: decisions.md
 * "Contact erasure"); the provider's message id goes too, since it can encode the number. Media rows
 * go, their files after commit. The conversation row is deleted (its automation runs cascade with
 * it), so the inbox no longer lists it and a later message starts a fresh conversation. Its notes
 * and the members' read positions go first, explicitly (they would cascade, but erasure reports the
 * notes); the assignment goes with the row.
 */
export async function eraseConversationData(tx: Db, target: ErasureTarget, now: Date): Promise<ConversationErasure> {
  const ofContact = and(eq(messages.projectId, target.projectId), eq(messages.contactId, target.contactId));
  const tombstones = await tx
    .update(messages)
    .set({
      content: null,
      body: {},
      recipient: null,
      replyTo: null,
      failure: null,
      media: null,
      platformMessageId: null,
      idempotencyKey: null,
      updatedAt: now,
    })
    .where(ofContact)
    .returning({ id: messages.id, channelId: messages.channelId });
  const messageIds = tombstones.map((m) => m.id);
  const files = messageIds.length
    ? await tx
        .delete(media)
        .where(and(eq(media.projectId, target.projectId), inArray(media.messageId, messageIds)))
        .returning({ id: media.id, storageKey: media.storageKey, errorCode: media.errorCode })
    : [];
  // media.cache stores under `${projectId}/${mediaId}` (lib/domain/media/cache.ts): a file still being
  // cached has no storage_key yet, but its bytes may land under that key after this commit.
  const storageKeys = files.map((f) => f.storageKey ?? `${target.projectId}/${f.id}`);
  const cachingKeys = files.filter((f) => !f.storageKey && f.errorCode === "caching").map((f) => `${target.projectId}/${f.id}`);
  const ofConversationOfContact = sql`in (select c.id from ${conversations} c where c.project_id = ${target.projectId} and c.contact_id = ${target.contactId})`;
  const notes = await tx
    .delete(conversationNotes)
    .where(and(eq(conversationNotes.projectId, target.projectId), sql`${conversationNotes.conversationId} ${ofConversationOfContact}`))
    .returning({ id: conversationNotes.id });
  await tx
    .delete(conversationReads)
    .where(and(eq(conversationReads.projectId, target.projectId), sql`${conversationReads.conversationId} ${ofConversationOfContact}`));
  const deleted = await tx
    .delete(conversations)
    .where(and(eq(conversations.projectId, target.projectId), eq(conversations.contactId, target.contactId)))
    .returning({ id: conversations.id });
  await tx.delete(threadControlStates).where(and(eq(threadControlStates.projectId, target.projectId), eq(threadControlStates.contactId, target.contactId)));
  const flowSubmissionCount = await eraseFlowData(tx, target);
  return {
    messages: tombstones.length,
    storageKeys,
    cachingKeys,
    channelIds: [...new Set(tombstones.map((m) => m.channelId))],
    messageIds,
    conversationIds: deleted.map((c) => c.id),
    flowSubmissions: flowSubmissionCount,
    notes: notes.length,
  };
}

/** Submissions keep their row (flow statistics) without the answers; dispatches lose the recipient. */
async function eraseFlowData(tx: Db, target: ErasureTarget): Promise<number> {
  const submissions = await tx
    .update(flowSubmissions)
    .set({ submission: {}, errors: null, from: null, contactId: null, conversationId: null })
    .where(
      and(
        eq(flowSubmissions.projectId, target.projectId),
        or(eq(flowSubmissions.contactId, target.contactId), target.digits ? eq(flowSubmissions.from, target.digits) : undefined),
      ),
    )
    .returning({ id: flowSubmissions.id });
  await tx
    .update(flowDispatches)
    .set({ to: null, contactId: null, conversationId: null })
    .where(and(eq(flowDispatches.projectId, target.projectId), eq(flowDispatches.contactId, target.contactId)));
  return submissions.length;
}
