import { unseal } from "@/lib/crypto/secrets";
import type { Settings } from "@/lib/domain/context";
import type { ProviderAccount } from "@/lib/ports/provider/types";
import type { ChannelRow } from "./sandbox";

/** The business account the provider's Flows API acts on, with the channel's token (the sandbox: the configured one). */
export function providerAccountOf(channel: ChannelRow, settings: Pick<Settings, "sandboxAccessToken">): ProviderAccount {
  const credentials = channel.credentialsSealed ? (JSON.parse(unseal(channel.credentialsSealed)) as Record<string, string>) : {};
  return {
    businessAccountId: channel.businessAccountId ?? "",
    phoneNumberId: channel.providerSenderId ?? "",
    accessToken: channel.isSandbox ? settings.sandboxAccessToken : (credentials.access_token ?? ""),
  };
}
