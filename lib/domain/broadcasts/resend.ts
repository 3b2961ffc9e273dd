/**
 * POST /broadcasts/{id}/resend-unknown: the one way a recipient whose outcome is unknown (attempts.ts)
 * is sent again. The sender never does it by itself, because the first message may have reached the
 * customer; an operator who accepts that risk asks for it here (the dashboard says so before it asks).
 * Only a COMPLETED broadcast: while it runs, what is unknown is not settled yet.
 */
import { and, eq, sql } from "drizzle-orm";
import { broadcastRecipients } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { SvcError } from "@/lib/errors";
import { OUTCOME_UNKNOWN } from "./attempts";
import { getBroadcastRow, serialize } from "./crud";
import { freshLease } from "./lease";
import { assertSendable, move } from "./lifecycle";
import { BROADCAST_RUN_JOB, type BroadcastRunJob } from "./run-job-name";
import { decide } from "./states";

/**
 * Those recipients become pending again (their first messages stay, failed, in the inbox) and the
 * broadcast SENDING, in one transaction: each is sent once more, however often this is called (a
 * second call finds none). None to resend: the broadcast is returned unchanged.
 */
export async function resendUnknown(ctx: Ctx, id: string) {
  const broadcast = await getBroadcastRow(ctx, id);
  if (decide("resend_unknown", broadcast.status) === "refuse") {
    throw new SvcError(
      "broadcast_not_editable",
      `Broadcast ${id} is ${broadcast.status}: recipients whose outcome is unknown can be resent once it is COMPLETED.`,
      { broadcast_id: id, status: broadcast.status },
    );
  }
  await assertSendable(ctx, broadcast);
  const row = await ctx.db.transaction(async (tx) => {
    const reset = await tx
      .update(broadcastRecipients)
      .set({ status: "pending", messageId: null, error: null, attempts: 0, dispatchedAt: null, updatedAt: ctx.now })
      .where(
        and(eq(broadcastRecipients.broadcastId, id), eq(broadcastRecipients.status, "failed"), sql`${broadcastRecipients.error}->>'code' = ${OUTCOME_UNKNOWN}`),
      )
      .returning({ id: broadcastRecipients.id });
    if (reset.length === 0) return null;
    const moved = await move(tx, broadcast, ["COMPLETED"], { status: "SENDING", completedAt: null, updatedAt: ctx.now, ...freshLease(ctx.now) });
    const job: BroadcastRunJob = { broadcastId: id, generation: moved.runGeneration };
    await ctx.ports.queue.send(BROADCAST_RUN_JOB, job, { tx });
    return moved;
  });
  return serialize(ctx, row ?? broadcast);
}
