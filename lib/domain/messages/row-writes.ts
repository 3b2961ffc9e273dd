import { eq, inArray, sql } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import { anyOf, insertRowsSql } from "@/lib/ports/db/bulk";
import type { Db } from "@/lib/ports/db/types";
import type { MessageInsert } from "./rows";
import type { MessageRow } from "./serialize";

/**
 * The message-row writes other modules ask for (ingest's echoes, edits and revokes; the media cache; a broadcast's batches),
 * in the caller's transaction (`db` may be it). The caller decides what changes; the table is written here.
 */

/** A row built by rows.ts; a provider retry of the same message inserts nothing. */
export async function insertMessageRow(db: Db, row: MessageInsert): Promise<void> {
  await db.insert(messages).values(row).onConflictDoNothing();
}

/** A revoke clears the content and keeps a tombstone body naming the revoke (service-spec: Replies, edits, deletes). */
export async function revokeMessageRow(db: Db, original: MessageRow, revokeId: string, now: Date): Promise<MessageRow> {
  const [row] = await db
    .update(messages)
    .set({
      content: null,
      body: { id: original.platformMessageId, type: original.type, revoked: true, revoke_id: revokeId },
      media: null,
      status: "deleted",
      deletedAt: now,
      updatedAt: now,
    })
    .where(eq(messages.id, original.id))
    .returning();
  return row!;
}

/** An edit's new text (content, or a media message's caption) and body marks, as the caller computed them. */
export async function editMessageRow(db: Db, id: string, changes: Pick<MessageInsert, "content" | "body" | "media">, now: Date): Promise<MessageRow> {
  const [row] = await db
    .update(messages)
    .set({ ...changes, editedAt: now, updatedAt: now })
    .where(eq(messages.id, id))
    .returning();
  return row!;
}

/** The cached file's wire form on its message, once the media cache has it. */
export async function setMessageMedia(db: Db, id: string, media: Record<string, unknown>, now: Date): Promise<void> {
  await db.update(messages).set({ media, updatedAt: now }).where(eq(messages.id, id));
}

/** Many rows built by rows.ts in one statement (a broadcast batch's queued sends). */
export async function insertMessageRows(db: Db, rows: readonly MessageInsert[]): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(insertRowsSql(messages, [...rows]));
}

/** Queued rows never handed to the provider, removed with the claim that made them (a broadcast giving a batch back). */
export async function deleteUnsentMessages(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.delete(messages).where(inArray(messages.id, [...ids]));
}

/** The provider's ids of accepted messages, in one statement (their status callbacks find them by it); a message keeps the first id it got. */
export async function setProviderIds(db: Db, accepted: readonly { messageId: string; pid: string }[], now: Date): Promise<void> {
  if (accepted.length === 0) return;
  await db.execute(sql`
    update ${messages} set platform_message_id = v.pid, updated_at = ${now.toISOString()}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(accepted)}::jsonb) as v("messageId" text, pid text)
    where ${messages.id} = v."messageId" and ${anyOf(
      messages.id,
      accepted.map((a) => a.messageId),
    )} and ${messages.platformMessageId} is null`);
}
