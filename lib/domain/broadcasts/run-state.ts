/** The sender's transitions of the broadcast row: start a scheduled one, pause, complete. Each is guarded by the status it expects. */
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { broadcastRecipients, broadcasts, messages } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import type { Claim } from "./claim";
import { freshLease } from "./lease";
import type { BroadcastRow } from "./serialize";
import type { PauseReason } from "./states";

export async function startScheduled(db: Db, broadcast: BroadcastRow, now: Date): Promise<BroadcastRow | null> {
  const [row] = await db
    .update(broadcasts)
    .set({ status: "SENDING", startedAt: now, updatedAt: now, ...freshLease(now) })
    .where(and(eq(broadcasts.id, broadcast.id), eq(broadcasts.status, "SCHEDULED"), eq(broadcasts.runGeneration, broadcast.runGeneration)))
    .returning();
  return row ?? null;
}

/** Why this run must not send now (the template left APPROVED, the channel went away); null when it may. */
export function whyPause(claim: Claim): PauseReason | null {
  if (claim.channel.status !== "connected") return "channel_not_ready";
  switch (claim.template.status) {
    case "APPROVED":
      return null;
    case "PAUSED":
      return "template_paused";
    case "DISABLED":
      return "template_disabled";
    default:
      return "template_not_approved";
  }
}

/** SENDING (or SCHEDULED) → PAUSED with the reason; the generation moves so the running sender stops. */
export async function pauseFor(db: Db, broadcast: Pick<BroadcastRow, "id">, reason: PauseReason, now: Date): Promise<void> {
  await pauseWhere(db, eq(broadcasts.id, broadcast.id), reason, now);
}

/** PAUSED with the reason, only if the broadcast is still sending this run (a newer run, a pause or a cancel wins). */
export async function pauseRun(db: Db, run: { broadcastId: string; generation: number }, reason: PauseReason, now: Date): Promise<void> {
  await pauseWhere(db, and(eq(broadcasts.id, run.broadcastId), eq(broadcasts.runGeneration, run.generation))!, reason, now);
}

/** The template turned PAUSED or DISABLED (its review webhook): every broadcast sending it pauses. */
export async function pauseForTemplate(db: Db, templateId: string, status: string, now: Date): Promise<void> {
  const reason: PauseReason = status === "PAUSED" ? "template_paused" : "template_disabled";
  await pauseWhere(db, eq(broadcasts.templateId, templateId), reason, now);
}

/** The running or scheduled broadcasts `which` selects → PAUSED; the generation moves so their sender stops. */
async function pauseWhere(db: Db, which: SQL, reason: PauseReason, now: Date): Promise<void> {
  await db
    .update(broadcasts)
    .set({ status: "PAUSED", pauseReason: reason, updatedAt: now, runGeneration: sql`${broadcasts.runGeneration} + 1` })
    .where(and(which, inArray(broadcasts.status, ["SENDING", "SCHEDULED"])));
}

/**
 * COMPLETED once every recipient was handed to the provider (or skipped / failed): nothing pending and
 * no queued message without the provider's id. Later callbacks keep moving the stats.
 */
export async function settleIfDone(db: Db, broadcast: Pick<BroadcastRow, "id" | "runGeneration">, now: Date): Promise<boolean> {
  const [open] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(broadcastRecipients)
    .leftJoin(messages, eq(messages.id, broadcastRecipients.messageId))
    .where(
      and(
        eq(broadcastRecipients.broadcastId, broadcast.id),
        sql`(${broadcastRecipients.status} = 'pending' or (${broadcastRecipients.status} = 'queued' and ${messages.status} = 'queued' and ${messages.platformMessageId} is null))`,
      ),
    );
  if ((open?.n ?? 0) > 0) return false;
  const done = await db
    .update(broadcasts)
    .set({ status: "COMPLETED", completedAt: now, updatedAt: now })
    .where(and(eq(broadcasts.id, broadcast.id), eq(broadcasts.status, "SENDING"), eq(broadcasts.runGeneration, broadcast.runGeneration)))
    .returning({ id: broadcasts.id });
  return done.length > 0;
}
