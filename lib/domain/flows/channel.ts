import { and, asc, desc, eq, inArray, or } from "drizzle-orm";
import { channels } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { SvcError } from "@/lib/errors";
import { getSandboxChannel, type ChannelRow } from "@/lib/domain/channels/sandbox";
import { publishReadinessOf } from "@/lib/domain/channels/publish-readiness";

/**
 * Where a flow is published (docs/spec/decisions.md "Flows"): the project's effective channel, its
 * dedicated number when connected, else the shared sandbox (flows publish under the service's account there).
 */
export async function publishChannelOf(ctx: Ctx): Promise<ChannelRow> {
  if (ctx.project.channelId) {
    const [dedicated] = await ctx.db
      .select()
      .from(channels)
      .where(and(eq(channels.id, ctx.project.channelId), eq(channels.organizationId, ctx.org.id)));
    if (dedicated && dedicated.status === "connected") return dedicated;
  }
  return getSandboxChannel(ctx.db);
}

/** The channel a flow was published through: the project's organization's, or the shared sandbox. */
export async function publishedChannelOf(ctx: Ctx, channelId: string): Promise<ChannelRow> {
  const [row] = await ctx.db
    .select()
    .from(channels)
    .where(and(eq(channels.id, channelId), or(eq(channels.organizationId, ctx.org.id), eq(channels.isSandbox, true))));
  if (!row)
    throw new SvcError("conflict", `The channel this flow was published through (${channelId}) is gone; publish the flow again.`, { channel_id: channelId });
  return row;
}

/** 422 for platforms without Flows, 412 channel_not_ready with the publish blockers. */
export function assertCanPublish(channel: ChannelRow): void {
  if (channel.platform !== "PLATFORM_A") {
    throw new SvcError("feature_unsupported_on_channel", `Flows are a PLATFORM_A feature; the project's channel ${channel.id} is ${channel.platform}.`, {
      channel_id: channel.id,
      platform: channel.platform,
    });
  }
  const readiness = publishReadinessOf(channel);
  if (!readiness?.can_publish_flows) {
    throw new SvcError("channel_not_ready", `Channel ${channel.id} cannot publish Flows yet: see blockers (GET /readiness explains each).`, {
      channel_id: channel.id,
      blockers: readiness?.blockers ?? [],
    });
  }
}

/** How a message names a channel for a person: the shared sandbox, or the number by its name and phone (and `aside`, e.g. its id). */
export function channelWords(channel: ChannelRow, aside?: string): string {
  const name = channel.isSandbox ? "the shared sandbox" : (channel.displayName ?? "your number");
  const notes = [channel.isSandbox ? null : channel.phoneNumber, aside].filter(Boolean);
  return notes.length ? `${name} (${notes.join(", ")})` : name;
}

/**
 * The connected PLATFORM_A channels the project can send through (its organization's, and the shared
 * sandbox) that belong to one of these business accounts: the ones a flow published there can be sent from.
 */
export async function channelsOfAccounts(ctx: Ctx, businessAccountIds: string[]): Promise<ChannelRow[]> {
  if (businessAccountIds.length === 0) return [];
  return ctx.db
    .select()
    .from(channels)
    .where(
      and(
        inArray(channels.businessAccountId, businessAccountIds),
        eq(channels.platform, "PLATFORM_A"),
        eq(channels.status, "connected"),
        or(eq(channels.organizationId, ctx.org.id), eq(channels.isSandbox, true)),
      ),
    )
    .orderBy(asc(channels.isSandbox), desc(channels.id))
    .limit(50);
}
