/**
 * Which sender slice holds a SENDING run, and until when. A slice takes the lease when it starts,
 * renews it every few seconds while it sends, and gives it back when it hands the run to its
 * continuation. A worker that dies (SIGKILL, a lost machine) stops renewing: once the lease has run
 * out, watchdog.ts hands the run to a new slice within seconds, instead of waiting the minutes pg-boss
 * takes to expire the dead worker's job. At most one live slice sends a run at a time; every send is
 * also guarded on its own (claim.ts markDispatched), so even two never send a recipient twice.
 */
import { randomUUID } from "node:crypto";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { broadcasts } from "@/lib/db/schema";
import type { Clock } from "@/lib/ports/clock";
import type { Db } from "@/lib/ports/db/types";
import type { BroadcastRunJob } from "./run-job-name";

/** How long a lease lasts without renewal: the longest a run waits for a new sender after its worker died. */
export const LEASE_MS = 12_000;
/** How often a live slice renews it (several renewals fit in one lease, so a slow statement does not lose it). */
const HEARTBEAT_MS = 3_000;

export function newLeaseHolder(): string {
  return randomUUID();
}

const leaseEnd = (now: Date) => new Date(now.getTime() + LEASE_MS);
const ofRun = (run: BroadcastRunJob) => and(eq(broadcasts.id, run.broadcastId), eq(broadcasts.runGeneration, run.generation), eq(broadcasts.status, "SENDING"));

/** Takes the run's lease when nobody holds it or its holder stopped renewing it. False: a live slice is sending it. */
export async function takeLease(db: Db, run: BroadcastRunJob, holder: string, now: Date): Promise<boolean> {
  const taken = await db
    .update(broadcasts)
    .set({ senderLeaseHolder: holder, senderLeaseUntil: leaseEnd(now) })
    .where(and(ofRun(run), or(isNull(broadcasts.senderLeaseHolder), isNull(broadcasts.senderLeaseUntil), lt(broadcasts.senderLeaseUntil, now))))
    .returning({ id: broadcasts.id });
  return taken.length > 0;
}

/** Extends the lease; false when this slice no longer holds it (taken over, or the run moved on). */
export async function renewLease(db: Db, run: BroadcastRunJob, holder: string, now: Date): Promise<boolean> {
  const renewed = await db
    .update(broadcasts)
    .set({ senderLeaseUntil: leaseEnd(now) })
    .where(and(ofRun(run), eq(broadcasts.senderLeaseHolder, holder)))
    .returning({ id: broadcasts.id });
  return renewed.length > 0;
}

/**
 * Gives the lease back so the continuation can take it at once. Its end stays a full lease ahead: if
 * the continuation never starts (the worker died between the two), the watchdog takes over then.
 */
export async function releaseLease(db: Db, run: Pick<BroadcastRunJob, "broadcastId">, holder: string, now: Date): Promise<void> {
  await db
    .update(broadcasts)
    .set({ senderLeaseHolder: null, senderLeaseUntil: leaseEnd(now) })
    .where(and(eq(broadcasts.id, run.broadcastId), eq(broadcasts.senderLeaseHolder, holder)));
}

/** The fields a transition to SENDING sets: no holder, and a lease's time for its first slice to start. */
export function freshLease(now: Date) {
  return { senderLeaseHolder: null, senderLeaseUntil: leaseEnd(now) };
}

export interface Heartbeat {
  /** True once a renewal found the lease in another slice's hands (or the run moved on): stop sending. */
  readonly lost: boolean;
  stop(): void;
}

/** Renews the lease every HEARTBEAT_MS until stopped. A renewal that fails on the database is tried again next beat. */
export function startHeartbeat(db: Db, run: BroadcastRunJob, holder: string, clock: Clock): Heartbeat {
  let lost = false;
  let beating: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    beating = beating.then(async () => {
      const held = await renewLease(db, run, holder, clock.now()).catch(() => true);
      if (!held) lost = true;
    });
  }, HEARTBEAT_MS);
  timer.unref?.();
  return {
    get lost() {
      return lost;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
