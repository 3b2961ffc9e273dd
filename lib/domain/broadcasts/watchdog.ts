/**
 * Hands a SENDING run whose sender stopped renewing its lease (lease.ts) to a new slice: its worker
 * was killed, or its machine lost. Every worker process looks every few seconds (lib/jobs/watchdogs.ts),
 * so a run resumes within a lease's time of the crash plus one look, not when pg-boss gets round to
 * expiring the dead worker's job (two to three minutes). The run moves to a new generation, so that
 * old job, when pg-boss retries it, stops at once; the new slice settles what the dead one left
 * without an answer (attempts.ts settleUnknown) before it sends anything.
 */
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { broadcasts } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import { freshLease } from "./lease";
import { BROADCAST_RUN_JOB, type BroadcastRunJob } from "./run-job-name";

/** How often each worker looks for runs that lost their sender. */
export const WATCH_EVERY_MS = 5_000;

/** Takes over every SENDING run past its lease: a new generation and its first slice's job, in one transaction. Returns them. */
export async function takeOverStalledRuns(ctx: Pick<SystemCtx, "db" | "ports">): Promise<BroadcastRunJob[]> {
  const now = ctx.ports.clock.now();
  return ctx.db.transaction(async (tx) => {
    const taken = await tx
      .update(broadcasts)
      .set({ runGeneration: sql`${broadcasts.runGeneration} + 1`, ...freshLease(now) })
      .where(and(eq(broadcasts.status, "SENDING"), or(isNull(broadcasts.senderLeaseUntil), lt(broadcasts.senderLeaseUntil, now))))
      .returning({ broadcastId: broadcasts.id, generation: broadcasts.runGeneration });
    for (const job of taken) await ctx.ports.queue.send(BROADCAST_RUN_JOB, job, { tx });
    return taken;
  });
}
