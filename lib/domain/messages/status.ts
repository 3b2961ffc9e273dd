import { sql } from "drizzle-orm";
import { isTransaction } from "@/lib/ports/db/transaction";
import { messages } from "@/lib/db/schema";
import type { ItemWriteAlongside, SystemCtx } from "@/lib/domain/context";
import type { MessageFailure } from "@/lib/ports/provider/types";
import { emitEvent, emitEvents, type EventInput } from "@/lib/domain/events";
import { builtOnceSql } from "@/lib/ports/db/prepared";
import type { MessageRow } from "./serialize";
import { messageStatusMoved, type StatusMoved } from "./status-moved";
import { moveAnnounced, movesAnnounced } from "./status-announced";
import { guardedMoveSql, guardedMovesCtes, moveValues, movesValues, type GuardedMove, type SetMove } from "./status-move-sql";
import { publishInboxEvent } from "@/lib/domain/inbox-live";

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
export async function applyStatus(
  ctx: SystemCtx,
  message: MessageRow,
  update: StatusUpdate,
  /** The caller's write for the move's own statement (SystemCtx.withItemWrite); `written` says whether it ran. */
  alongside: ItemWriteAlongside | null = null,
): Promise<boolean> {
  if (!canMove(message.status, update.status)) return false;
  const move = guardedMove(message, update);
  const event = statusEvent(message, update);
  const reacting = [{ message, status: update.status, at: update.at, failure: update.failure ?? null }];
  // The move, what reacts to it and its message.status commit together (in the caller's transaction when
  // there is one): a move kept without its event would never be announced, since a retry finds it moved.
  // With no reaction concerned (most messages are no broadcast's), one statement holds both.
  const moved = !messageStatusMoved.concerns(reacting)
    ? await moveAnnounced(ctx, move, event, alongside)
    : isTransaction(ctx.db)
      ? await moveAndEmit(ctx, move, reacting, event)
      : await ctx.db.transaction((tx) => moveAndEmit({ ...ctx, db: tx }, move, reacting, event));
  if (moved) announceMoves([message]);
  return moved;
}

function guardedMove(message: MessageRow, update: StatusUpdate): GuardedMove {
  return {
    id: message.id,
    status: update.status,
    failure: JSON.stringify(update.failure ?? message.failure ?? null),
    at: update.at.toISOString(),
    from: statusesMovableTo(update.status).join(","),
  };
}

async function moveAndEmit(ctx: SystemCtx, move: GuardedMove, reacting: StatusMoved[], event: EventInput): Promise<boolean> {
  const moved = await moveStatus(ctx.db, moveValues(move));
  if (!moved.length) return false;
  await messageStatusMoved.run(ctx, reacting);
  await emitEvent(ctx, event);
  return true;
}

/** The guarded forward move of one message, built once: every status of a broadcast's message runs it. */
const moveStatus = builtOnceSql<{ id: string }>("message_status_move", () => guardedMoveSql());

/** A run's guarded moves, built once (status-move-sql.ts): the ids of the rows that moved. */
const moveRun = builtOnceSql<{ id: string }>("message_status_moves", () => sql`with ${guardedMovesCtes()} select "id" from "moved"`);

/** What a status move reads of its message (its row and its message.status event); the content is not needed. */
export type StatusTarget = Pick<
  MessageRow,
  "id" | "projectId" | "platformMessageId" | "conversationId" | "contactId" | "channelId" | "status" | "failure" | "broadcastId"
>;

/** The columns a StatusTarget is selected with (`db.select(STATUS_TARGET_COLUMNS)`). */
export const STATUS_TARGET_COLUMNS = {
  id: messages.id,
  projectId: messages.projectId,
  platformMessageId: messages.platformMessageId,
  conversationId: messages.conversationId,
  contactId: messages.contactId,
  channelId: messages.channelId,
  status: messages.status,
  failure: messages.failure,
  broadcastId: messages.broadcastId,
};

export interface StatusMove {
  message: StatusTarget;
  update: StatusUpdate;
}

/**
 * applyStatus over many messages at once (an envelope's run of statuses, hundreds during a broadcast):
 * the same forward-only moves and message.status events. A message may come more than once (sent,
 * then delivered); its moves apply in order. The UPDATE's guard is the forward-only rule itself, not
 * the status each message was read with: envelopes of one broadcast are applied concurrently (a
 * message's sent, delivered and read arrive in three of them), and a message another writer moved
 * meanwhile still moves when that is forward, or stays. Only the rows that moved get their events (a
 * repeated event is dropped by its dedupe key). Rows are updated in id order, so concurrent runs do
 * not deadlock. With no reaction concerned, the moves, events, deliveries and jobs are ONE statement
 * (status-announced.ts movesAnnounced); otherwise the guarded UPDATE, the reactions (a broadcast's
 * recipients) and one multi-row event insert, in the caller's transaction.
 */
export async function applyStatuses(
  ctx: SystemCtx,
  moves: StatusMove[],
  /** The caller's write for the moves' one statement, when they are one (SystemCtx.withItemWrite); `written` says whether it ran. */
  alongside: ItemWriteAlongside | null = null,
): Promise<number> {
  const after = new Map<string, { read: StatusTarget; status: DeliveryStatus; failure: MessageFailure | null; at: Date }>();
  const applied: StatusMove[] = [];
  for (const move of moves) {
    const seen = after.get(move.message.id);
    const from = seen?.status ?? move.message.status;
    if (!canMove(from, move.update.status)) continue;
    const read = seen?.read ?? move.message;
    after.set(read.id, { read, status: move.update.status, failure: move.update.failure ?? seen?.failure ?? read.failure, at: move.update.at });
    applied.push({ message: read, update: move.update });
  }
  if (!applied.length) return 0;
  const rows = [...after.values()]
    .sort((a, b) => (a.read.id < b.read.id ? -1 : 1))
    .map((m) => ({ id: m.read.id, from: statusesMovableTo(m.status).join(","), status: m.status, failure: m.failure, at: m.at.toISOString() }));
  const reacting = [...after.values()].map((m) => ({ message: m.read, status: m.status, at: m.at, failure: m.failure }));
  // With no reaction concerned (no broadcast's message in the run), the moves and their events are one statement.
  const moved = messageStatusMoved.concerns(reacting)
    ? await movesThenEmit(ctx, rows, applied, reacting)
    : await movesAnnounced(
        ctx,
        rows,
        applied.map((move) => ({ messageId: move.message.id, input: statusEvent(move.message, move.update) })),
        alongside,
      );
  if (moved.size === 0) return 0;
  const emitted = applied.filter((move) => moved.has(move.message.id));
  announceMoves([...after.values()].filter((m) => moved.has(m.read.id)).map((m) => m.read));
  return emitted.length;
}

/** The run's moves, then what reacts to them and their events, as statements of the caller's transaction. */
async function movesThenEmit(ctx: SystemCtx, rows: SetMove[], applied: StatusMove[], reacting: StatusMoved[]): Promise<Set<string>> {
  const moved = new Set((await moveRun(ctx.db, movesValues(rows))).map((row) => row.id));
  if (moved.size === 0) return moved;
  await messageStatusMoved.run(
    ctx,
    reacting.filter((m) => moved.has(m.message.id)),
  );
  await emitEvents(
    ctx,
    applied.filter((move) => moved.has(move.message.id)).map((move) => statusEvent(move.message, move.update)),
  );
  return moved;
}

/**
 * Every status tick (ingest's callbacks one by one or as a run, the send job's, a broadcast's) passes
 * here: the inbox hears of each moved message once. Its last step: the caller's transaction, when
 * there is one (a status run), commits right after, and the inbox publisher sends a few milliseconds
 * later (lib/domain/inbox-live/publisher.ts), deduplicated per message.
 */
function announceMoves(moved: readonly Pick<StatusTarget, "id" | "projectId" | "conversationId">[]): void {
  for (const message of moved) publishInboxEvent(message.projectId, { type: "message.updated", conversation_id: message.conversationId, id: message.id });
}

/** The message.status event of one move; the dedupe key makes a provider's repeated callback no second event. */
function statusEvent(message: StatusTarget, update: StatusUpdate): EventInput {
  return {
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
  };
}
