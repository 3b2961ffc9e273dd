import { randomBytes } from "node:crypto";
import { randomBase62, sha256Hex } from "@/lib/crypto/secrets";

/**
 * The user code's alphabet: 20 consonants, no vowels (no words spelled by accident), none that reads
 * like a digit or another letter (no I, O, U, Y, ...). 20^8 ≈ 2.6 × 10^10 codes (RFC 8628 §6.1).
 */
export const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
export const USER_CODE_LENGTH = 8;

export function generateUserCode(): string {
  let out = "";
  while (out.length < USER_CODE_LENGTH) {
    // 240 = 12 × 20: rejection sampling keeps every letter equally likely.
    for (const byte of randomBytes(USER_CODE_LENGTH * 2)) {
      if (byte < 240 && out.length < USER_CODE_LENGTH) out += USER_CODE_ALPHABET[byte % 20];
    }
  }
  return out;
}

/** `BCDF-GHJK`: how the CLI prints it and the confirmation page shows it. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * What the operator typed or the link carried, as stored (8 letters, upper case), or null when it
 * cannot be a user code. Dashes, spaces and lower case are forgiven.
 */
export function normalizeUserCode(input: string): string | null {
  const letters = input.toUpperCase().replace(/[\s-]/g, "");
  if (letters.length !== USER_CODE_LENGTH) return null;
  return [...letters].every((c) => USER_CODE_ALPHABET.includes(c)) ? letters : null;
}

/** The CLI's secret for polling: only its hash is stored. */
export function generateDeviceCode(): string {
  return `svc_dc_${randomBase62(40)}`;
}

export function hashDeviceCode(code: string): string {
  return sha256Hex(code);
}
