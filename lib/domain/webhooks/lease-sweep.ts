import { sql, type SQL } from "drizzle-orm";
import { webhookDeliveries } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import { anyOf, executeRows } from "@/lib/ports/db/bulk";
import { sendAttempt } from "./enqueue";
import { ATTEMPT_TIMEOUT_MS } from "./schedule";

/** Deliveries handed to jobs per statement: a dead worker leaves at most a few hundred (direct.ts CAPACITY). */
const BATCH = 500;

/**
 * Gives to a job every pending delivery whose direct attempt's lease has passed (direct.ts): the worker
 * that held it died, or its attempt could not be recorded. The lease is cleared and the next attempt's
 * job written in one transaction, so a delivery is taken over once however many workers look at the
 * same moment (SKIP LOCKED), and only while it is still pending and leased. Runs on every worker's
 * watchdog timer (lib/jobs/watchdogs.ts), not as a queue job: the case it exists for is a dead worker.
 * Returns how many it handed over.
 */
export async function sweepExpiredLeases(ctx: Pick<SystemCtx, "db" | "ports">): Promise<number> {
  const now = ctx.ports.clock.now().toISOString();
  const due = sql`"lease_expires_at" <= ${now}::timestamptz`;
  let total = 0;
  for (;;) {
    const taken = await handToJobs(ctx, now, due);
    total += taken;
    if (taken < BATCH) return total;
  }
}

/**
 * How long after a give-back its job may attempt: past the longest a running attempt can still take (its
 * POST's timeout) and its settle. An attempt still running in the stopping worker then either settles
 * first, and the job finds nothing to do, or dies with its process; the job never POSTs beside it (two
 * owners at once put two recorded successes on one delivery: the fault suite's scenario 7, 2026-11-30).
 */
export const GIVE_BACK_DELAY_MS = ATTEMPT_TIMEOUT_MS + 5_000;

/**
 * A stopping worker's direct attempts still running at its deadline (direct.ts): their deliveries go to
 * jobs now, as its queue jobs go back to the queue, rather than wait out their 30 s lease, but each job
 * starts only after GIVE_BACK_DELAY_MS. An attempt that still finishes first is settled as usual.
 */
export async function giveBackLeases(ctx: Pick<SystemCtx, "db" | "ports">, deliveryIds: string[]): Promise<number> {
  if (!deliveryIds.length) return 0;
  const now = ctx.ports.clock.now();
  return handToJobs(ctx, now.toISOString(), anyOf(webhookDeliveries.id, deliveryIds), new Date(now.getTime() + GIVE_BACK_DELAY_MS));
}

/** Up to BATCH pending, leased deliveries matching `which`: lease cleared and the next attempt's job written, in one transaction. */
function handToJobs(ctx: Pick<SystemCtx, "db" | "ports">, now: string, which: SQL, startAfter?: Date): Promise<number> {
  const next = startAfter ? startAfter.toISOString() : now;
  return ctx.db.transaction(async (tx) => {
    const rows = await executeRows<{ id: string; project_id: string; attempt_count: number }>(
      tx,
      sql`update ${webhookDeliveries} set "lease_expires_at" = null, "next_attempt_at" = ${next}::timestamptz, "updated_at" = ${now}::timestamptz
        where "id" in (select "id" from ${webhookDeliveries}
          where "status" = 'pending' and "lease_expires_at" is not null and ${which}
          order by "lease_expires_at" limit ${BATCH} for update skip locked)
        returning "id", "project_id", "attempt_count"`,
    );
    for (const row of rows) await sendAttempt(tx, ctx.ports.queue, { deliveryId: row.id, attempt: row.attempt_count + 1 }, row.project_id, startAfter);
    return rows.length;
  });
}
