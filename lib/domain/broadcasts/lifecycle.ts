/**
 * The broadcast's writes after creation: add recipients, send (now, scheduled, or resume), pause and
 * cancel. Each is one transaction; a send that starts sending bumps run_generation and queues the
 * sender for that generation, so an older sender chain (before a pause) stops by itself.
 */
import { and, count, eq, inArray, sql } from "drizzle-orm";
import { broadcastRecipients, broadcasts } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { getChannelRowOrThrow } from "@/lib/domain/channels";
import { approvedTemplateOf } from "@/lib/domain/templates/send-check";
import { getTemplateRow } from "@/lib/domain/templates/crud";
import { SvcError } from "@/lib/errors";
import type { Db } from "@/lib/ports/db/types";
import { getBroadcastRow, serialize } from "./crud";
import { insertRecipients, judgeRecipients, notEditable, type RecipientInput } from "./recipients";
import { BROADCAST_RUN_JOB, type BroadcastRunJob } from "./run-job-name";
import { queueRelease } from "./leftovers";
import { freshLease } from "./lease";
import type { BroadcastRow } from "./serialize";
import { decide, sendTarget, type BroadcastAction } from "./states";
import { recordAudit } from "@/lib/domain/audit/record";

export async function addRecipients(ctx: Ctx, id: string, input: { recipients: RecipientInput[] }) {
  const broadcast = await getBroadcastRow(ctx, id);
  if (decide("add_recipients", broadcast.status) === "refuse") throw notEditable(id, broadcast.status);
  const template = await getTemplateRow(ctx, broadcast.templateId);
  const judged = await judgeRecipients(ctx, template, input.recipients);
  const added = await ctx.db.transaction(async (tx) => {
    // Held so a send cannot start between the check and the insert.
    const [locked] = await tx.select({ status: broadcasts.status }).from(broadcasts).where(eq(broadcasts.id, id)).for("update");
    if (!locked || decide("add_recipients", locked.status) === "refuse") throw notEditable(id, locked?.status ?? "gone");
    return insertRecipients({ ...ctx, db: tx }, id, judged.rows);
  });
  return {
    object: "broadcast_recipients_added" as const,
    broadcast_id: id,
    added,
    duplicates: judged.repeated + (judged.rows.length - added),
    errors: judged.errors,
  };
}

export async function sendBroadcast(ctx: Ctx, id: string) {
  const broadcast = await getBroadcastRow(ctx, id);
  if (decideOrThrow("send", broadcast) === "same") return serialize(ctx, broadcast);
  await assertSendable(ctx, broadcast);
  const [{ n }] = (await ctx.db.select({ n: count() }).from(broadcastRecipients).where(eq(broadcastRecipients.broadcastId, id))) as [{ n: number }];
  if (n === 0)
    throw new SvcError("broadcast_has_no_recipients", `Broadcast ${id} has no recipients: add them with POST /broadcasts/${id}/recipients first.`, {
      broadcast_id: id,
    });
  const target = sendTarget(broadcast.status, broadcast.sendAt, ctx.now);
  const row = await ctx.db.transaction(async (tx) => {
    const moved = await move(tx, broadcast, ["DRAFT", "PAUSED"], {
      status: target,
      pauseReason: null,
      startedAt: target === "SENDING" ? (broadcast.startedAt ?? ctx.now) : null,
      updatedAt: ctx.now,
      ...freshLease(ctx.now),
    });
    const job: BroadcastRunJob = { broadcastId: id, generation: moved.runGeneration };
    await ctx.ports.queue.send(BROADCAST_RUN_JOB, job, { tx, ...(target === "SCHEDULED" ? { startAfter: broadcast.sendAt! } : {}) });
    await recordAudit(
      { ...ctx, db: tx },
      {
        action: "broadcast.sent",
        target: { type: "broadcast", id },
        details: { name: broadcast.name, status: target, resumed: broadcast.status === "PAUSED", recipients: n },
      },
    );
    return moved;
  });
  return serialize(ctx, row);
}

export async function pauseBroadcast(ctx: Ctx, id: string) {
  const broadcast = await getBroadcastRow(ctx, id);
  if (decideOrThrow("pause", broadcast) === "same") return serialize(ctx, broadcast);
  const row = await ctx.db.transaction(async (tx) => {
    const moved = await move(tx, broadcast, ["SENDING", "SCHEDULED"], { status: "PAUSED", pauseReason: "paused_by_user", updatedAt: ctx.now });
    await recordAudit({ ...ctx, db: tx }, { action: "broadcast.paused", target: { type: "broadcast", id }, details: { name: broadcast.name } });
    return moved;
  });
  return serialize(ctx, row);
}

/**
 * Cancel: whatever has not been handed to the provider yet is skipped (skip_reason cancelled). Pending
 * recipients at once; messages a run already queued once it can no longer be sending them (leftovers.ts).
 */
export async function cancelBroadcast(ctx: Ctx, id: string) {
  const broadcast = await getBroadcastRow(ctx, id);
  if (decideOrThrow("cancel", broadcast) === "same") return serialize(ctx, broadcast);
  const row = await ctx.db.transaction(async (tx) => {
    const moved = await move(tx, broadcast, ["DRAFT", "SCHEDULED", "SENDING", "PAUSED"], {
      status: "CANCELLED",
      pauseReason: null,
      completedAt: ctx.now,
      updatedAt: ctx.now,
    });
    await tx
      .update(broadcastRecipients)
      .set({ status: "skipped", skipReason: "cancelled", updatedAt: ctx.now })
      .where(and(eq(broadcastRecipients.broadcastId, id), eq(broadcastRecipients.status, "pending")));
    if (broadcast.startedAt) await queueRelease(ctx, tx, id);
    await recordAudit(
      { ...ctx, db: tx },
      { action: "broadcast.cancelled", target: { type: "broadcast", id }, details: { name: broadcast.name, previous_status: broadcast.status } },
    );
    return moved;
  });
  return serialize(ctx, row);
}

/** What sending needs now: the template APPROVED (409 template_not_approved) and the channel connected (412). */
export async function assertSendable(ctx: Ctx, broadcast: BroadcastRow): Promise<void> {
  const channel = await getChannelRowOrThrow(ctx, broadcast.channelId);
  await approvedTemplateOf(ctx, channel, { id: broadcast.templateId });
  if (channel.status !== "connected") {
    throw new SvcError("channel_not_ready", `Channel ${channel.id} is ${channel.status}; connect it again to send this broadcast.`, {
      channel_id: channel.id,
      blockers: ["CHANNEL_NOT_CONNECTED"],
    });
  }
}

function decideOrThrow(action: BroadcastAction, broadcast: BroadcastRow): "change" | "same" {
  const decision = decide(action, broadcast.status);
  if (decision !== "refuse") return decision;
  throw new SvcError(
    "broadcast_not_editable",
    `Broadcast ${broadcast.id} is ${broadcast.status}: ${action === "pause" ? "only a SENDING or SCHEDULED broadcast can be paused" : `a ${broadcast.status} broadcast cannot ${action}`}.`,
    {
      broadcast_id: broadcast.id,
      status: broadcast.status,
    },
  );
}

/** A guarded transition (the status must still be one of `from`), bumping the run generation. A lost race is a 409. */
export async function move(db: Db, broadcast: BroadcastRow, from: BroadcastRow["status"][], set: Partial<BroadcastRow>): Promise<BroadcastRow> {
  const [row] = await db
    .update(broadcasts)
    .set({ ...set, runGeneration: sql`${broadcasts.runGeneration} + 1` })
    .where(and(eq(broadcasts.id, broadcast.id), inArray(broadcasts.status, from)))
    .returning();
  if (!row) throw new SvcError("broadcast_not_editable", `Broadcast ${broadcast.id} changed status meanwhile; read it again.`, { broadcast_id: broadcast.id });
  return row;
}
