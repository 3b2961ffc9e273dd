import { and, asc, eq, inArray } from "drizzle-orm";
import { media } from "@/lib/db/schema";
import type { MediaRow } from "@/lib/db/schema/media";
import type { Db } from "@/lib/ports/db/types";
import { mediaUrlFor } from "./tokens";

/**
 * The spec's media object (Message.media, message.received media/assets) from a media row. The URL is
 * signed at the moment of reading: about an hour, never past retention; expired objects have none.
 */
/** What the provider said about a file that the media row does not keep: caption, voice note, animated. */
export interface MediaExtras {
  caption?: string | null;
  voice?: boolean;
  animated?: boolean;
}

export function extrasOf(stored: Record<string, unknown> | null | undefined): MediaExtras {
  if (!stored) return {};
  return {
    ...(typeof stored.caption === "string" ? { caption: stored.caption } : {}),
    ...(typeof stored.voice === "boolean" ? { voice: stored.voice } : {}),
    ...(typeof stored.animated === "boolean" ? { animated: stored.animated } : {}),
  };
}

export function mediaWire(row: MediaRow, now: Date, publicUrl: string, extras: MediaExtras = {}) {
  const expired = row.status === "expired" || (row.expiresAt !== null && row.expiresAt <= now);
  const available = row.status === "available" && !expired;
  return {
    id: row.id,
    message_id: row.messageId,
    type: row.type,
    url: available ? mediaUrlFor(row.id, now, row.expiresAt, publicUrl) : null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    mime_type: row.mimeType,
    file_name: row.fileName,
    file_size: row.fileSize,
    platform_a_media_id: row.provider === "platform_a" ? row.providerMediaId : null,
    provider: row.provider,
    provider_media_id: row.providerMediaId,
    accessible: available,
    status: expired ? ("expired" as const) : row.status,
    access_policy: "signed_url",
    error_code: expired ? "expired" : row.errorCode,
    note: available ? null : expired ? "Retention has passed; the file was deleted." : noteFor(row.errorCode),
    ...(extras.caption ? { caption: extras.caption } : {}),
    ...(extras.voice !== undefined ? { voice: extras.voice } : {}),
    ...(extras.animated !== undefined ? { animated: extras.animated } : {}),
  };
}

function noteFor(code: string | null): string {
  switch (code) {
    case "caching":
      return "The file is still being cached; read the message again shortly for its URL.";
    case "too_large":
      return "The file is larger than the platform's limit for its type and was not kept.";
    case "content_type_mismatch":
      return "The provider served a different kind of file than it announced; it was not kept.";
    default:
      return "The file could not be fetched from the provider.";
  }
}

/**
 * Current media objects for messages, keyed by message id: status and a freshly signed URL computed
 * now (docs/spec/service-spec.md: reading a message later re-signs while the object is retained).
 */
export async function currentMediaOf(
  db: Db,
  projectId: string,
  messageRows: { id: string; media: Record<string, unknown> | null }[],
  now: Date,
  publicUrl: string,
) {
  const ids = messageRows.filter((m) => m.media).map((m) => m.id);
  const out = new Map<string, ReturnType<typeof mediaWire>>();
  if (!ids.length) return out;
  const rows = await db
    .select()
    .from(media)
    .where(and(eq(media.projectId, projectId), inArray(media.messageId, ids)))
    .orderBy(asc(media.id));
  for (const row of rows) {
    if (out.has(row.messageId)) continue;
    out.set(row.messageId, mediaWire(row, now, publicUrl, extrasOf(messageRows.find((m) => m.id === row.messageId)?.media)));
  }
  return out;
}
