import { and, asc, eq, isNotNull, lte } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { applyStatus, canMove, type DeliveryStatus, type StatusUpdate } from "@/lib/domain/messages/status";
import type { ApplyOutcome } from "./apply";
import type { MessageRow } from "@/lib/domain/messages/serialize";
import type { InboundOf } from "./resolve";

/** A provider status callback moves the stored message forward (never back) and emits message.status. */
export async function applyProviderStatus(
  ctx: SystemCtx,
  channel: ChannelRow,
  event: InboundOf<"status">,
  /** The message it names, read with the channel (apply.ts channelOf); null: not stored (yet). */
  message: MessageRow | null,
): Promise<ApplyOutcome> {
  if (event.platform_message_id === "") return applyWatermark(ctx, channel, event);
  // The callback can outrun the send job storing the provider id: the caller retries later.
  if (!message) return "status_pending";
  if (event.status === "deleted") return "status_ignored";
  // The envelope's mark (SystemCtx.withItemWrite) goes with the move when it is one statement.
  const moved = await applyStatus(ctx, message, statusUpdateOf(event), ctx.withItemWrite ?? null);
  return moved ? "status" : "status_ignored";
}

/** What a provider status callback says, as the move applyStatus makes (a failure in the spec's shape). */
export function statusUpdateOf(event: InboundOf<"status">): StatusUpdate {
  const error = event.errors[0];
  return {
    status: event.status as DeliveryStatus,
    at: new Date(event.timestamp),
    recipientId: event.recipient_id,
    recipientUserId: event.recipient_user_id,
    errors: event.errors,
    raw: event.raw,
    failure:
      event.status === "failed" && error
        ? {
            provider: "provider",
            summary: error.title,
            code: error.code,
            subcode: null,
            type: null,
            title: error.title,
            message: error.message ?? error.title,
            fbtrace_id: null,
            http_status: null,
            occurred_at: event.timestamp,
          }
        : null,
  };
}

/**
 * A read or delivery receipt that names no message, only a watermark (Messenger): every outbound
 * message to that user on the channel the provider accepted at or before the watermark moves forward.
 */
async function applyWatermark(ctx: SystemCtx, channel: ChannelRow, event: InboundOf<"status">): Promise<ApplyOutcome> {
  if (event.status !== "read" && event.status !== "delivered") return "status_ignored";
  const recipient = event.recipient_user_id ?? event.recipient_id;
  if (!recipient) return "status_ignored";
  const section = event.raw[event.status === "read" ? "read" : "delivery"];
  const mark = typeof section === "object" && section !== null ? Number((section as Record<string, unknown>).watermark) : NaN;
  const watermark = Number.isFinite(mark) && mark > 0 ? new Date(mark < 1e11 ? mark * 1000 : mark) : new Date(event.timestamp);
  const target: DeliveryStatus = event.status;
  const candidates = await ctx.db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.channelId, channel.id),
        eq(messages.direction, "outbound"),
        eq(messages.recipient, recipient),
        isNotNull(messages.platformMessageId),
        lte(messages.timestamp, watermark),
      ),
    )
    .orderBy(asc(messages.id));
  let moved = false;
  for (const message of candidates) {
    if (!canMove(message.status, target)) continue;
    const changed = await applyStatus(ctx, message, {
      status: target,
      at: new Date(event.timestamp),
      recipientUserId: event.recipient_user_id,
      recipientId: event.recipient_id,
      raw: event.raw,
    });
    moved = changed || moved;
  }
  return moved ? "status" : "status_ignored";
}
