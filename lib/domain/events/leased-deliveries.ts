import { inArray } from "drizzle-orm";
import { projects } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { newId } from "@/lib/ids";
import type { SystemCtx } from "@/lib/domain/context";
import { ATTEMPT_PROJECT_COLUMNS, type AttemptScope } from "@/lib/domain/webhooks/attempt";
import { insertLeasedDeliveries, scheduleDelivery } from "@/lib/domain/webhooks/enqueue";

/**
 * The deliveries of a run of events stored together (emitEvents: an envelope's statuses, several
 * messages' sent, delivered and read at once). Those this process attempts itself once the caller
 * commits (lib/domain/webhooks/direct.ts) are written in ONE multi-row insert, each handed to the
 * direct batch with the scope its attempt reads, so the attempt looks nothing up. Before, each status
 * cost two round trips, about six per keyword → reply in the bench: its delivery's insert, inside the
 * transaction that holds the run's message rows, and its attempt's lookup after the commit (README
 * "Performance"). A paused endpoint, or no free slot, gets scheduleDelivery's row (and job) as before.
 */

/** A stored event that goes to the webhook (emitEvents' row). */
export interface StoredEvent {
  id: string;
  projectId: string;
  type: string;
  payload: Record<string, unknown>;
  createdAt: Date;
}

type Target = AttemptScope["project"];

export async function deliverStoredEvents(ctx: Pick<SystemCtx, "db" | "ports" | "direct">, stored: StoredEvent[]): Promise<void> {
  if (!stored.length) return;
  const targets = await targetsOf(ctx.db, [...new Set(stored.map((event) => event.projectId))]);
  const leased: { event: StoredEvent; target: Target; deliveryId: string; lease: Date }[] = [];
  for (const event of stored) {
    const target = targets.get(event.projectId);
    if (!target?.webhookUrl) continue;
    const lease = target.webhookPausedAt === null ? (ctx.direct?.reserve(event.projectId, ctx.ports.clock.now()) ?? null) : null;
    if (lease) leased.push({ event, target, deliveryId: newId("webhookDelivery", event.createdAt.getTime()), lease });
    else await scheduleDelivery(ctx.db, ctx.ports.queue, event, event.createdAt, "event", { url: target.webhookUrl, pausedAt: target.webhookPausedAt }, null);
  }
  if (!leased.length) return;
  // A failure here leaves the slots reserved: the direct batch frees them when the caller's transaction ends.
  await insertLeasedDeliveries(
    ctx.db,
    leased.map(({ event, deliveryId, lease }) => ({
      id: deliveryId,
      projectId: event.projectId,
      eventId: event.id,
      eventType: event.type,
      at: event.createdAt,
      leaseExpiresAt: lease,
    })),
  );
  for (const { event, target, deliveryId } of leased) ctx.direct?.settle(event.projectId, deliveryId, scopeOf(event, target, deliveryId));
}

/** Each project's AttemptScope["project"], read once for the run (the columns attempt.ts's lookup reads). */
async function targetsOf(db: Db, projectIds: string[]): Promise<Map<string, Target>> {
  const rows = await db.select(ATTEMPT_PROJECT_COLUMNS).from(projects).where(inArray(projects.id, projectIds));
  return new Map(rows.map((row) => [row.id, row]));
}

/** What the attempt would have read back (attempt.ts deliveryLookup), as this transaction wrote and read it. */
function scopeOf(event: StoredEvent, project: Target, deliveryId: string): AttemptScope {
  return { delivery: { id: deliveryId, status: "pending", attemptCount: 0 }, event: { id: event.id, type: event.type, payload: event.payload }, project };
}
