import { eq } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import type { MessageInsert } from "./rows";
import type { MessageRow } from "./serialize";

/**
 * The message-row writes other modules ask for (ingest's echoes, edits and revokes; the media cache),
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
