import { and, eq, isNotNull, ne, or } from "drizzle-orm";
import { channels } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { SvcError } from "@/lib/errors";
import { recordAudit } from "@/lib/domain/audit/record";
import { getWritableChannelRowOrThrow, serializeChannels } from "./index";

/**
 * DELETE /channels/{id}: disconnects a dedicated channel. Its stored credentials (the access token
 * with them) are wiped and its status becomes `disconnected`; conversations and messages stay. The
 * provider sender id stays on the row so later inbound for the number is recognised and refused
 * (lib/domain/ingest/apply.ts), until the number is connected again (createChannel releases it).
 * A project whose number it was keeps pointing at it, so readiness says the number is disconnected
 * and the sandbox is the effective channel; the next channel the project connects becomes its number.
 * Disconnecting a disconnected channel changes nothing and answers it again (a retry is safe).
 */
export async function disconnectChannel(ctx: Ctx, id: string) {
  const channel = await getWritableChannelRowOrThrow(ctx, id);
  if (channel.isSandbox) {
    throw new SvcError(
      "unprocessable",
      "The shared sandbox serves every project and cannot be disconnected. To stop its inbound reaching your webhook, change the project's routing_mode (PATCH /projects/{id}); only dedicated channels (POST /channels) can be disconnected.",
      { channel_id: channel.id },
    );
  }
  // Only a change bumps updated_at: a retry (or a second click) answers the same object.
  // Only a change is audited, in its transaction: a retry records nothing.
  const updated = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(channels)
      .set({ status: "disconnected", credentialsSealed: null, updatedAt: ctx.now })
      .where(and(eq(channels.id, channel.id), or(ne(channels.status, "disconnected"), isNotNull(channels.credentialsSealed))))
      .returning();
    if (row) {
      await recordAudit(
        { ...ctx, db: tx },
        {
          action: "channel.disconnected",
          target: { type: "channel", id: row.id },
          details: { platform: row.platform, display_name: row.displayName, phone_number: row.phoneNumber },
        },
      );
    }
    return row;
  });
  const row = updated ?? (await ctx.db.select().from(channels).where(eq(channels.id, channel.id)))[0]!;
  return (await serializeChannels(ctx, [row]))[0]!;
}
