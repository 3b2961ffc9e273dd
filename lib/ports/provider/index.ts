import { env } from "@/lib/config";
import { createAccountsPort } from "@/lib/ports/provider/accounts";
import { createAgentsPort } from "@/lib/ports/provider/agents";
import { createFlowsPort } from "@/lib/ports/provider/flows";
import { sendMessenger } from "@/lib/ports/provider/messenger";
import { sendPlatformA } from "@/lib/ports/provider/platform-a";
import { createTemplatesPort } from "@/lib/ports/provider/templates";
import type { ProviderPort } from "@/lib/ports/provider/types";
import type { AdapterOptions } from "@/lib/ports/provider/graph-http";

/**
 * Provider port: one Graph API base URL, the adapter chosen by the channel's platform. The same code
 * talks to the real provider (PROVIDER_GRAPH_URL) and to the built-in simulator, which the app serves
 * itself at `/api/simulator/graph` (see defaultGraphUrl).
 */
/** The Graph API base URL (real provider or simulator), per-request timeout (15 s default), injectable fetch and clock. */
export type ProviderPortOptions = AdapterOptions;

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
    flows: createFlowsPort(options),
    templates: createTemplatesPort(options),
    accounts: createAccountsPort(options),
    agents: createAgentsPort(options),
  };
}

/** PROVIDER_GRAPH_URL when set, else the built-in simulator's Graph API under the app's public URL. */
export function defaultGraphUrl(): string {
  const { providerGraphUrl, publicUrl } = env();
  return providerGraphUrl ?? `${publicUrl.replace(/\/+$/, "")}/api/simulator/graph`;
}

export type { ProviderPort } from "@/lib/ports/provider/types";
