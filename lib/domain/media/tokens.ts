import { timingSafeEqual } from "node:crypto";
import { purposeHmac } from "@/lib/crypto/secrets";

/**
 * Signed media URLs (docs/spec/service-spec.md: Events → Inbound media 3; docs/spec/decisions.md "Addresses": the signed media download).
 *
 * Token = `<expiry, unix seconds>.<base64url HMAC-SHA256>` where the MAC covers
 * `media-url:v1:<media id>:<expiry>` under a key derived (HKDF) from SVC_ENCRYPTION_KEY with the
 * label "media-url-v1". The token is the whole authorization of a download: it binds one media id
 * and one deadline, so a token for media A never opens media B, and changing any part of it (id,
 * expiry or MAC) makes it invalid. Nothing is stored per token; rotating SVC_ENCRYPTION_KEY voids
 * every outstanding URL (they last an hour at most).
 */
const PURPOSE = "media-url-v1";

/** How long a freshly signed URL lasts, before the retention cap. */
export const MEDIA_URL_TTL_MS = 60 * 60 * 1000;

const TOKEN_SHAPE = /^([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{43})$/;

function mac(mediaId: string, expirySeconds: number): Buffer {
  return purposeHmac(PURPOSE, `media-url:v1:${mediaId}:${expirySeconds}`);
}

/** Signs a token for `mediaId` valid until `expiresAt` (rounded down to the second, never later). */
export function signMediaToken(mediaId: string, expiresAt: Date): string {
  const expirySeconds = Math.floor(expiresAt.getTime() / 1000);
  if (!Number.isSafeInteger(expirySeconds) || expirySeconds <= 0) throw new RangeError("Media token expiry must be a date after 1970.");
  return `${expirySeconds}.${mac(mediaId, expirySeconds).toString("base64url")}`;
}

export type MediaTokenCheck = "valid" | "expired" | "invalid";

/**
 * "invalid" for anything not signed by us for exactly this media id and expiry (checked first, in
 * constant time); "expired" for a genuine token whose deadline is at or before `now`.
 */
export function verifyMediaToken(mediaId: string, token: string, now: Date): MediaTokenCheck {
  const match = TOKEN_SHAPE.exec(token);
  if (!match) return "invalid";
  const expirySeconds = Number(match[1]);
  const given = Buffer.from(match[2]!, "base64url");
  const expected = mac(mediaId, expirySeconds);
  // 43 base64url characters always decode to 32 bytes; a non-canonical last character is refused by
  // the round-trip check so exactly one spelling of a MAC is accepted.
  if (given.length !== expected.length || given.toString("base64url") !== match[2] || !timingSafeEqual(given, expected)) return "invalid";
  return expirySeconds * 1000 > now.getTime() ? "valid" : "expired";
}

/** When a URL signed at `now` stops working: one hour, or the retention deadline if sooner. */
function mediaUrlExpiry(now: Date, retentionExpiresAt: Date | null): Date {
  const oneHour = now.getTime() + MEDIA_URL_TTL_MS;
  const capped = retentionExpiresAt ? Math.min(oneHour, retentionExpiresAt.getTime()) : oneHour;
  return new Date(Math.floor(capped / 1000) * 1000);
}

/**
 * The signed download URL of a cached media file, `${publicUrl}/api/v1/media/{id}/content?token=...`,
 * valid about an hour and never past the retention deadline. Null when the object is no longer
 * retained (the deadline is at or before `now`, to the second).
 */
export function mediaUrlFor(mediaId: string, now: Date, retentionExpiresAt: Date | null, publicUrl: string): string | null {
  const expiresAt = mediaUrlExpiry(now, retentionExpiresAt);
  if (expiresAt.getTime() <= now.getTime()) return null;
  const base = publicUrl.replace(/\/+$/, "");
  return `${base}/api/v1/media/${encodeURIComponent(mediaId)}/content?token=${encodeURIComponent(signMediaToken(mediaId, expiresAt))}`;
}

/** The expiry a token claims (whether or not it is genuine); null when it is not token-shaped. */
export function mediaTokenExpiry(token: string): Date | null {
  const match = TOKEN_SHAPE.exec(token);
  return match ? new Date(Number(match[1]) * 1000) : null;
}
