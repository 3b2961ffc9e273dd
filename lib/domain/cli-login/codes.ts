import { randomBytes } from "node:crypto";
import { randomBase62, sha256Hex } from "@/lib/crypto/secrets";
import { USER_CODE_ALPHABET, USER_CODE_LENGTH } from "@/lib/shared/cli-user-code";

// The code's alphabet and format live in lib/shared so the dashboard's confirmation page uses the same rules.
export { formatUserCode, normalizeUserCode, USER_CODE_ALPHABET } from "@/lib/shared/cli-user-code";

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

/** The CLI's secret for polling: only its hash is stored. */
export function generateDeviceCode(): string {
  return `svc_dc_${randomBase62(40)}`;
}

export function hashDeviceCode(code: string): string {
  return sha256Hex(code);
}
