import { moveRecipient } from "@/lib/domain/broadcasts/progress";
import { and, eq, inArray } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import type { MessageFailure } from "@/lib/ports/provider/types";
import { emitEvent } from "@/lib/domain/events";
import type { MessageRow } from "./serialize";

export type DeliveryStatus = "sent" | "delivered" | "read" | "failed";

const RANK: Record<string, number> = { queued: 0, sent: 1, delivered: 2, read: 3 };

/** Statuses move forward only (queued → sent → delivered → read); failed and deleted are terminal. */
export function canMove(from: string, to: DeliveryStatus): boolean {
  if (from === "failed" || from === "deleted") return false;
  if (to === "failed") return from !== "read";
  return (RANK[to] ?? -1) > (RANK[from] ?? 99);
}

/** Every delivery status a message may move to `to` from (canMove as a list, for a guarded UPDATE). */
export function statusesMovableTo(to: DeliveryStatus): MessageRow["status"][] {
  return Object.keys(RANK).filter((s) => canMove(s, to)) as MessageRow["status"][];
}

export interface StatusUpdate {
  status: DeliveryStatus;
  at: Date;
  recipientId?: string | null;
  recipientUserId?: string | null;
  failure?: MessageFailure | null;
  errors?: unknown[];
  /** The provider's item, kept for the event payload (pricing, conversation, ...). */
  raw?: Record<string, unknown>;
}

/**
 * Moves a message forward and emits message.status. A status that would move it backwards (a late
 * "delivered" after "read") changes nothing and emits nothing. Returns whether it moved.
 */
export async function applyStatus(ctx: SystemCtx, message: MessageRow, update: StatusUpdate): Promise<boolean> {
  if (!canMove(message.status, update.status)) return false;
  const allowedFrom = statusesMovableTo(update.status);
  const moved = await ctx.db
    .update(messages)
    .set({ status: update.status, failure: update.failure ?? message.failure, updatedAt: update.at })
    .where(and(eq(messages.id, message.id), inArray(messages.status, allowedFrom)))
    .returning({ id: messages.id });
  if (!moved.length) return false;
  if (message.broadcastId) await moveRecipient(ctx.db, message.id, update.status, update.at, (update.failure ?? null) as Record<string, unknown> | null);
  await emitEvent(ctx, {
    project: { id: message.projectId },
    type: "message.status",
    payload: {
      message_id: message.id,
      platform_message_id: message.platformMessageId,
      conversation_id: message.conversationId,
      contact_id: message.contactId,
      channel_id: message.channelId,
      status: update.status,
      timestamp: update.at.toISOString(),
      recipient_id: update.recipientId ?? null,
      recipient_user_id: update.recipientUserId ?? null,
      failure: update.failure ?? null,
      errors: update.errors ?? [],
      ...(update.raw?.pricing ? { pricing: update.raw.pricing } : {}),
      ...(update.raw?.conversation ? { conversation: update.raw.conversation } : {}),
    },
    at: update.at,
    dedupeKey: `status:${message.id}:${update.status}`,
  });
  return true;
}
