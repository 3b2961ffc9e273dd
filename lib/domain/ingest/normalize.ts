import type { ProviderPlatform } from "@/lib/ports/provider/types";
import { normalizeMessengerWebhook } from "./normalize-messenger";
import { normalizePlatformAWebhook } from "./normalize-platform-a";
import type { InboundEvent } from "./types";

/**
 * A provider webhook body (parsed JSON, signature already verified) → normalized inbound events, in
 * payload order. Never throws: malformed items are skipped and a foreign body yields [].
 */
export function normalizeWebhook(platform: ProviderPlatform, payload: unknown): InboundEvent[] {
  return platform === "PLATFORM_A" ? normalizePlatformAWebhook(payload) : normalizeMessengerWebhook(platform, payload);
}
