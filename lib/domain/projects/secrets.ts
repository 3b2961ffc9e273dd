import { randomBytes } from "node:crypto";

/** `whsec_` + base64 of 24 random bytes (docs/spec/decisions.md "Webhook delivery"). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/**
 * A usable secret is `whsec_` + base64 of 24 to 64 bytes: the Standard Webhooks signature is keyed by
 * the decoded bytes, so anything else could not be verified by the standard libraries.
 */
export function isValidWebhookSecret(secret: string): boolean {
  const match = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(secret);
  if (!match) return false;
  const bytes = Buffer.from(match[1]!, "base64");
  return bytes.length >= 24 && bytes.length <= 64 && bytes.toString("base64") === match[1];
}

const JOIN_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** Short, unambiguous, easy to type on a phone: `join k7m2xq9p`. */
export function generateJoinCode(): string {
  return Array.from(randomBytes(8), (b) => JOIN_ALPHABET[b % JOIN_ALPHABET.length]).join("");
}
