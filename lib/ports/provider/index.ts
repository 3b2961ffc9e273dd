import { env } from "@/lib/config";
import { sendMessenger } from "@/lib/ports/provider/messenger";
import { sendPlatformA } from "@/lib/ports/provider/platform-a";
import type { ProviderPort } from "@/lib/ports/provider/types";

/**
 * Provider port: one Graph API base URL, the adapter chosen by the channel's platform. The same code
 * talks to the real provider (PROVIDER_GRAPH_URL) and to the built-in simulator, which the app serves
 * itself at `/api/simulator/graph` (see defaultGraphUrl).
 */
export interface ProviderPortOptions {
  graphUrl: string;
  /** Per-request timeout; 15 s by default. */
  timeoutMs?: number;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  now?: () => Date;
}

export function createProviderPort(options: ProviderPortOptions): ProviderPort {
  return {
    async send(channel, to, message) {
      switch (channel.platform) {
        case "PLATFORM_A":
          return sendPlatformA(options, channel, to, message);
        case "PLATFORM_B":
        case "PLATFORM_C":
          return sendMessenger(options, { ...channel, platform: channel.platform }, to, message);
      }
    },
  };
}

/** PROVIDER_GRAPH_URL when set, else the built-in simulator's Graph API under the app's public URL. */
export function defaultGraphUrl(): string {
  const { providerGraphUrl, publicUrl } = env();
  return providerGraphUrl ?? `${publicUrl.replace(/\/+$/, "")}/api/simulator/graph`;
}

export { ProviderError } from "@/lib/ports/provider/types";
export type { MessageFailure, ProviderChannel, ProviderPlatform, ProviderPort } from "@/lib/ports/provider/types";
