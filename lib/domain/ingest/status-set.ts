import { and } from "drizzle-orm";
import { anyOf } from "@/lib/ports/db/bulk";
import { messages } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { applyStatuses, STATUS_TARGET_COLUMNS, type StatusMove, type StatusTarget } from "@/lib/domain/messages/status";
import type { InboundEvent } from "./types";
import { channelBySender, type InboundOf } from "./resolve";
import { statusUpdateOf } from "./statuses";

/** What the set path leaves to the caller: statuses whose message is not stored yet (retry them later). */
export interface StatusSetOutcome {
  pending: InboundOf<"status">[];
}

/**
 * An envelope's run of statuses (a broadcast's callbacks arrive by the hundred) applied as a set: the
 * channels and messages read once, the moves written by applyStatuses in a few statements. Each status
 * ends as applyProviderStatus would end it (moved, ignored, or pending when its message is not stored
 * yet; a message another run moved meanwhile moves on only forward). null: the run holds something
 * only the one-by-one path handles (a watermark receipt); the caller then applies it one status at a time.
 */
export async function applyStatusSet(ctx: SystemCtx, run: InboundEvent[]): Promise<StatusSetOutcome | null> {
  const statuses = run.filter((event): event is InboundOf<"status"> => event.kind === "status");
  if (statuses.length !== run.length || statuses.some((event) => event.platform_message_id === "")) return null;
  const channels = await channelsOf(ctx, statuses);
  const live = statuses.filter((event) => {
    const channel = channels.get(senderKey(event));
    return channel && channel.status !== "disconnected";
  });
  const stored = await messagesOf(
    ctx,
    live.map((event) => ({ channelId: channels.get(senderKey(event))!.id, providerId: event.platform_message_id })),
  );
  const pending: InboundOf<"status">[] = [];
  const moves: StatusMove[] = [];
  for (const event of live) {
    const message = stored.get(messageKey(channels.get(senderKey(event))!.id, event.platform_message_id));
    // The callback can outrun the send job storing the provider id: the caller retries it later.
    if (!message) pending.push(event);
    else if (event.status !== "deleted") moves.push({ message, update: statusUpdateOf(event) });
  }
  await applyStatuses(ctx, moves, ctx.withItemWrite ?? null);
  return { pending };
}

function senderKey(event: InboundOf<"status">): string {
  return `${event.platform}\u0000${event.senderId}`;
}

function messageKey(channelId: string, providerId: string): string {
  return `${channelId}\u0000${providerId}`;
}

async function channelsOf(ctx: SystemCtx, statuses: InboundOf<"status">[]): Promise<Map<string, ChannelRow>> {
  const found = new Map<string, ChannelRow>();
  for (const event of statuses) {
    const key = senderKey(event);
    if (found.has(key)) continue;
    const [channel] = await channelBySender(ctx.db).execute({ platform: event.platform, sender: event.senderId });
    if (channel) found.set(key, channel);
  }
  return found;
}

async function messagesOf(ctx: SystemCtx, wanted: { channelId: string; providerId: string }[]): Promise<Map<string, StatusTarget>> {
  if (!wanted.length) return new Map();
  const rows = await ctx.db
    .select(STATUS_TARGET_COLUMNS)
    .from(messages)
    // One text[] parameter each (anyOf): one statement text whatever the run's length, prepared once.
    .where(
      and(
        anyOf(messages.channelId, [...new Set(wanted.map((w) => w.channelId))]),
        anyOf(messages.platformMessageId, [...new Set(wanted.map((w) => w.providerId))]),
      ),
    );
  return new Map(rows.map((row) => [messageKey(row.channelId, row.platformMessageId!), row]));
}
