import { and, eq, isNull } from "drizzle-orm";
import { channels } from "@/lib/db/schema";
import { seal } from "@/lib/crypto/secrets";
import type { SystemCtx } from "@/lib/domain/context";

/**
 * A channel's DATA_EXCHANGE key pair as the flows module hands it over (flows/exchange/keys.ts decides
 * when). Both writes are guarded, so concurrent publish jobs agree on one stored pair.
 */

/** Stores the pair only while the channel has none: the first writer wins, the others read its pair. */
export async function storeFlowKeyPair(ctx: SystemCtx, channelId: string, pair: { publicKeyPem: string; privateKeyPem: string }): Promise<void> {
  await ctx.db
    .update(channels)
    .set({ flowPublicKey: pair.publicKeyPem, flowPrivateKeySealed: seal(pair.privateKeyPem), flowKeyRegisteredAt: null, updatedAt: ctx.now })
    .where(and(eq(channels.id, channelId), isNull(channels.flowPublicKey)));
}

/** Only for the key just registered: a key replaced meanwhile must not be marked registered. */
export async function markFlowKeyRegistered(ctx: SystemCtx, channelId: string, publicKeyPem: string): Promise<void> {
  await ctx.db
    .update(channels)
    .set({ flowKeyRegisteredAt: ctx.now, updatedAt: ctx.now })
    .where(and(eq(channels.id, channelId), eq(channels.flowPublicKey, publicKeyPem)));
}
