import { and, eq, isNull } from "drizzle-orm";
import { channels } from "@/lib/db/schema";
import { seal } from "@/lib/crypto/secrets";
import type { SystemCtx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { providerAccountOf } from "@/lib/domain/flows/channel";
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
    await ctx.db
      .update(channels)
      .set({ flowPublicKey: pair.publicKeyPem, flowPrivateKeySealed: seal(pair.privateKeyPem), flowKeyRegisteredAt: null, updatedAt: ctx.now })
      .where(and(eq(channels.id, channel.id), isNull(channels.flowPublicKey)));
    const [stored] = await ctx.db.select().from(channels).where(eq(channels.id, channel.id));
    if (!stored?.flowPublicKey) throw new Error(`Channel ${channel.id} is gone: no Flow key pair could be stored for it.`);
    current = stored;
  }
  const publicKeyPem = current.flowPublicKey!;
  if (!current.flowKeyRegisteredAt) {
    await ctx.ports.provider.flows.registerEncryptionKey(providerAccountOf(current, ctx.settings), publicKeyPem);
    // Only for the key just registered: a key replaced meanwhile must not be marked registered.
    await ctx.db
      .update(channels)
      .set({ flowKeyRegisteredAt: ctx.now, updatedAt: ctx.now })
      .where(and(eq(channels.id, channel.id), eq(channels.flowPublicKey, publicKeyPem)));
  }
  return { publicKeyPem };
}
