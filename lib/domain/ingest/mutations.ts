import type { Db } from "@/lib/ports/db/types";
import { editMessageRow, revokeMessageRow } from "@/lib/domain/messages/row-writes";
import type { MessageRow } from "@/lib/domain/messages/serialize";
import type { NormalizedInboundMessage } from "./types";
import { messageByProviderId } from "./resolve";

/** The stored message an edit or delete names (by provider id), or null when it is not stored (yet). */
export async function mutationTarget(db: Db, channelId: string, message: NormalizedInboundMessage): Promise<MessageRow | null> {
  const originalId = message.edit?.original_message_id ?? message.revoke?.original_message_id;
  if (!originalId) return null;
  const [original] = await messageByProviderId(db).execute({ channel: channelId, providerId: originalId });
  return original ?? null;
}

/**
 * Edits update the stored message; revokes clear its content (docs/spec/service-spec.md: Replies, edits, deletes). Returns
 * the changed row, or null when there is nothing (left) to change: a deleted message, an edit applied
 * already (provider retry) or older than the one applied last (deliveries out of order).
 */
export async function mutateOriginal(db: Db, original: MessageRow, message: NormalizedInboundMessage, now: Date): Promise<MessageRow | null> {
  if (original.status === "deleted") return null;
  if (message.type === "revoke") {
    return revokeMessageRow(db, original, message.id, now);
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
  return editMessageRow(db, original.id, changes, now);
}
