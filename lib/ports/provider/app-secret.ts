import { createHmac } from "node:crypto";
import { env } from "@/lib/config";
import { constantTimeEqual } from "@/lib/crypto/secrets";
import type { ProviderPlatform } from "@/lib/ports/provider/types";

/**
 * Secrets the provider shares with us per platform: the app secret that signs webhook bodies
 * (X-Hub-Signature-256) and the verify token of the GET subscription handshake.
 *
 * In simulator mode (PROVIDER_GRAPH_URL unset) a fresh install must work with no configuration, so
 * unset variables fall back to fixed, documented development values that the built-in simulator
 * also uses:
 *   app secret    svc-simulator-platform_a | svc-simulator-platform_b | svc-simulator-platform_c
 *   verify token  svc-simulator-verify
 * With PROVIDER_GRAPH_URL set (a real provider) there is no fallback: unset means null, and the
 * webhook route must refuse the request.
 */
export const SIMULATOR_VERIFY_TOKEN = "svc-simulator-verify";

export function simulatorAppSecret(platform: ProviderPlatform): string {
  return `svc-simulator-${platform.toLowerCase()}`;
}

const SECRET_VARS: Record<ProviderPlatform, string> = {
  PLATFORM_A: "PLATFORM_A_APP_SECRET",
  PLATFORM_B: "PLATFORM_B_APP_SECRET",
  PLATFORM_C: "PLATFORM_C_APP_SECRET",
};

const VERIFY_VARS: Record<ProviderPlatform, string> = {
  PLATFORM_A: "PLATFORM_A_VERIFY_TOKEN",
  PLATFORM_B: "PLATFORM_B_VERIFY_TOKEN",
  PLATFORM_C: "PLATFORM_C_VERIFY_TOKEN",
};

function simulatorMode(): boolean {
  return env().providerGraphUrl === null;
}

/** The app secret that signs this platform's webhooks, or null when none is configured. */
export function appSecretFor(platform: ProviderPlatform): string | null {
  const configured = process.env[SECRET_VARS[platform]];
  if (configured) return configured;
  return simulatorMode() ? simulatorAppSecret(platform) : null;
}

/** The verify token for this platform's GET handshake, or null when none is configured. */
export function verifyTokenFor(platform: ProviderPlatform): string | null {
  const configured = process.env[VERIFY_VARS[platform]];
  if (configured) return configured;
  return simulatorMode() ? SIMULATOR_VERIFY_TOKEN : null;
}

/** `sha256=<hex HMAC-SHA256 of the raw body>`: the X-Hub-Signature-256 header value. */
export function signPayload(secret: string, rawBody: string | Uint8Array): string {
  return `sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`;
}

/** Constant-time check of an X-Hub-Signature-256 header against the raw body. */
export function verifySignature(secret: string, rawBody: string | Uint8Array, header: string | null | undefined): boolean {
  if (!header || !header.startsWith("sha256=")) return false;
  return constantTimeEqual(signPayload(secret, rawBody), header.trim().toLowerCase());
}
