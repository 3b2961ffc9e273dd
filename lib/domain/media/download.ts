import { eq } from "drizzle-orm";
import { media, type MediaRow } from "@/lib/db/schema";
import { SvcError } from "@/lib/errors";
import type { Db } from "@/lib/ports/db/types";
import { mediaTokenExpiry, verifyMediaToken } from "./tokens";

export interface AuthorizedDownload {
  media: MediaRow & { storageKey: string };
  /** When the presented URL stops working (drives Cache-Control max-age). */
  tokenExpiresAt: Date;
}

/**
 * The authorization step of `GET /media/{id}/content?token=...`. There is no API key: the token is the
 * whole authorization, so it is checked BEFORE the database is read (a caller without a genuine token
 * learns nothing, not even whether the id exists), and the row is then read by id alone, across
 * projects: a genuine token names exactly one media id.
 *
 *  - no token, or one not signed for this id and expiry → 403 forbidden, reason missing_token / invalid_token
 *  - a genuine token past its deadline                  → 403 forbidden, reason expired_token
 *  - genuine and live, but the file is not (or no longer) there → 404 not_found
 */
export async function authorizeMediaDownload(db: Db, mediaId: string, token: string | null, now: Date): Promise<AuthorizedDownload> {
  if (!token) {
    throw new SvcError("forbidden", "This media URL has no token. Download media through the signed `url` of the message's media object.", {
      reason: "missing_token",
    });
  }
  const check = verifyMediaToken(mediaId, token, now);
  if (check === "invalid") {
    throw new SvcError("forbidden", "This media URL's token is not valid for this file. Use the signed `url` exactly as the message's media object gives it.", {
      reason: "invalid_token",
    });
  }
  if (check === "expired") {
    const at = mediaTokenExpiry(token)!;
    throw new SvcError(
      "forbidden",
      `This media URL expired at ${at.toISOString()}. Read the message again (GET /conversations/{id}/messages) for a freshly signed url while the file is retained.`,
      { reason: "expired_token", expired_at: at.toISOString() },
    );
  }

  const [row] = await db.select().from(media).where(eq(media.id, mediaId)).limit(1);
  if (!row) throw new SvcError("not_found", `No media file with id '${mediaId}'.`);
  const retainedUntil = row.expiresAt;
  if (row.status === "expired" || (retainedUntil && retainedUntil.getTime() <= now.getTime())) {
    const when = retainedUntil ? ` at ${retainedUntil.toISOString()}` : "";
    throw new SvcError("not_found", `Media file '${mediaId}' is no longer retained: its retention period ended${when}.`);
  }
  if (row.status !== "available" || !row.storageKey) {
    throw new SvcError(
      "not_found",
      `Media file '${mediaId}' could not be cached, so there is nothing to download${row.errorCode ? ` (${row.errorCode})` : ""}.`,
    );
  }
  return { media: { ...row, storageKey: row.storageKey }, tokenExpiresAt: mediaTokenExpiry(token)! };
}
