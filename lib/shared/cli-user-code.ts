/**
 * The CLI login's user code (docs/spec/decisions.md "Developer tools"): pure rules shared by the server
 * (lib/domain/cli-login) and the dashboard's confirmation page (/cli/confirm), which must accept and
 * show a code exactly as the server does. No server imports: this file reaches the browser bundle.
 *
 * The alphabet: 20 consonants, no vowels (no words spelled by accident), none that reads like a digit
 * or another letter (no I, O, U, Y, ...). 20^8 ≈ 2.6 × 10^10 codes (RFC 8628 §6.1).
 */
export const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
export const USER_CODE_LENGTH = 8;

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
