import { eq } from "drizzle-orm";
import { channels } from "@/lib/db/schema";
import { markFlowKeyRegistered, storeFlowKeyPair } from "@/lib/domain/channels/flow-keys";
import type { SystemCtx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { providerAccountOf } from "@/lib/domain/channels/provider-account";
import { generateFlowKeyPairOffThread } from "./crypto";

/**
 * The channel's DATA_EXCHANGE key pair (docs/spec/decisions.md "Flows"): generated once, the private key
 * sealed at rest, the public key registered with the provider for the number
 * (`POST {graph}/{phone_number_id}/whatsapp_business_encryption`). Safe to call from concurrent publish
 * jobs (and the flows.register-key job a PLATFORM_A connect enqueues): only the first UPDATE finds the key empty, and everyone then uses the row as stored.
 * Registration failures (ProviderError) propagate to the caller, which retries later; a key stored but
 * not yet registered is registered on the next call.
 */
export async function ensureFlowKeys(ctx: SystemCtx, channel: ChannelRow): Promise<{ publicKeyPem: string }> {
  let current = channel;
  if (!current.flowPublicKey) {
    const pair = await generateFlowKeyPairOffThread();
    await storeFlowKeyPair(ctx, channel.id, pair);
    const [stored] = await ctx.db.select().from(channels).where(eq(channels.id, channel.id));
    if (!stored?.flowPublicKey) throw new Error(`Channel ${channel.id} is gone: no Flow key pair could be stored for it.`);
    current = stored;
  }
  const publicKeyPem = current.flowPublicKey!;
  if (!current.flowKeyRegisteredAt) {
    await ctx.ports.provider.flows.registerEncryptionKey(providerAccountOf(current, ctx.settings), publicKeyPem);
    await markFlowKeyRegistered(ctx, channel.id, publicKeyPem);
  }
  return { publicKeyPem };
}
