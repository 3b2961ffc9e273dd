/**
 * What a cancelled run leaves queued. A slice gives back the batch it holds when it sees the cancel
 * (claim.ts releaseBatch), but messages an earlier batch could not hand over (throughput refusals
 * waiting for their retry) and a dead slice's batch are in no slice's hands: without this they stayed
 * `queued` for ever, in the recipients list and in the inbox. The cancel queues one release job, late
 * enough that no slice of the cancelled run can still be sending; it gives back every message still
 * queued without the provider's id, as the slice would have.
 */
import { eq } from "drizzle-orm";
import { broadcasts } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import type { Tx } from "@/lib/ports/db/types";
import { settleUnknown } from "./attempts";
import { releaseBatch, unsent } from "./claim";

export const BROADCAST_RELEASE_JOB = "broadcasts.release";

/**
 * How long after the cancel: a slice runs ≤ 20 s, then finishes the batch it is sending (≤ 20 s at
 * the slowest pacing) and waits for its last sends (15 s provider timeout), checking the run's
 * generation between batches. Three minutes is well past all of that.
 */
export const RELEASE_AFTER_MS = 180_000;
const PAGE = 500;

interface BroadcastReleaseJob {
  broadcastId: string;
}

/** Queued in the cancel's transaction, so a cancel that commits always has its release. */
export async function queueRelease(ctx: Pick<SystemCtx, "ports">, tx: Tx, broadcastId: string): Promise<void> {
  const job: BroadcastReleaseJob = { broadcastId };
  await ctx.ports.queue.send(BROADCAST_RELEASE_JOB, job, { tx, startAfter: RELEASE_AFTER_MS });
}

/** Gives back what the cancelled run left queued: recipients `skipped` (cancelled), their messages deleted; a send left without its answer ends outcome_unknown. */
export async function releaseCancelled(ctx: SystemCtx, broadcastId: string): Promise<void> {
  const [broadcast] = await ctx.db.select({ status: broadcasts.status }).from(broadcasts).where(eq(broadcasts.id, broadcastId));
  if (broadcast?.status !== "CANCELLED") return;
  // Handed to the provider with no answer: it may have reached the customer, so it is not "not sent".
  await settleUnknown(ctx, broadcastId);
  for (;;) {
    const page = await unsent(ctx.db, broadcastId, PAGE);
    if (page.length === 0) return;
    await releaseBatch(ctx, broadcastId, page);
  }
}
