import { and, eq, sql } from "drizzle-orm";
import { projects, webhookDeliveries } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { builtOnce } from "@/lib/ports/db/prepared";
import type { TypedJobQueue } from "@/lib/jobs/catalog";
import { newId } from "@/lib/ids";
import type { DirectDeliveryBatch } from "@/lib/domain/context";
import { jobPayload, statementWithJob } from "@/lib/ports/queue/job-insert";
import { insertRowsSql } from "@/lib/ports/db/bulk";

export const WEBHOOK_DELIVER_JOB = "webhook.deliver";

export interface DeliveryJob {
  deliveryId: string;
  /** The attempt this job makes (1-based); a retried job for the same attempt is recognised. */
  attempt: number;
}

export type DeliveryTrigger = "event" | "redeliver" | "replay";

/** Where a project's deliveries go: what scheduleDelivery reads of the project when its caller has not. */
const WEBHOOK_TARGET = { url: projects.webhookUrl, pausedAt: projects.webhookPausedAt };
type WebhookTarget = { url: string | null; pausedAt: Date | null };

/**
 * Creates the delivery of an event and schedules its first attempt, inside the caller's transaction
 * (so an event and its delivery commit together). No webhook_url: no delivery (the event stays and
 * can be replayed). A paused endpoint: the delivery waits, paused, until the webhook is updated.
 */
export async function scheduleDelivery(
  db: Db,
  queue: TypedJobQueue,
  event: { id: string; projectId: string; type: string },
  now: Date,
  trigger: DeliveryTrigger = "event",
  /** The project's webhook target when the caller read it already (in the same transaction). */
  target?: WebhookTarget,
  /** The caller's direct batch (SystemCtx.direct): a slot there means no job, the attempt follows the commit. */
  direct?: DirectDeliveryBatch | null,
): Promise<string | null> {
  const [project] = target ? [target] : await db.select(WEBHOOK_TARGET).from(projects).where(eq(projects.id, event.projectId));
  if (!project?.url) return null;
  const id = newId("webhookDelivery", now.getTime());
  const paused = project.pausedAt !== null;
  const row = { id, projectId: event.projectId, eventId: event.id, eventType: event.type, trigger, now };
  if (paused) {
    await insertDelivery(db, { ...row, status: "paused", nextAttemptAt: null, leaseExpiresAt: null });
    return id;
  }
  const lease = direct?.reserve(event.projectId, now) ?? null;
  if (lease) {
    // A failed insert leaves the slot reserved: the batch frees it when the caller's transaction ends.
    await insertDelivery(db, { ...row, status: "pending", nextAttemptAt: now.toISOString(), leaseExpiresAt: lease.toISOString() });
    direct?.settle(event.projectId, id);
    return id;
  }
  // The delivery and its first job in one statement (lib/ports/queue/job-insert.ts).
  const job: DeliveryJob = { deliveryId: id, attempt: 1 };
  await insertPendingDelivery(db, queue.insertion(WEBHOOK_DELIVER_JOB), {
    ...row,
    now: now.toISOString(),
    job: jobPayload(WEBHOOK_DELIVER_JOB, job, attemptJobOptions(job, event.projectId)),
  });
  return id;
}

const insertPendingDelivery = statementWithJob("webhook_delivery_insert_with_job", (job) => {
  const p = (name: string) => sql`${sql.placeholder(name)}`;
  const now = sql`${p("now")}::text::timestamptz`;
  const delivery = sql`insert into ${webhookDeliveries} ("id", "project_id", "event_id", "event_type", "status", "next_attempt_at", "trigger", "created_at", "updated_at")
    values (${p("id")}, ${p("projectId")}, ${p("eventId")}, ${p("eventType")}, 'pending', ${now}, ${p("trigger")}, ${now}, ${now}) returning "id"`;
  return sql`with "delivery" as (${delivery})${job.ctes("job", p("job"))} select ${job.notifiedColumn("job")} as "notified"`;
});

/** A delivery with no job: paused (until the webhook is updated), or leased to this process (direct.ts). */
const insertDelivery = builtOnce("webhook_delivery_insert", (db) => {
  const p = (name: string) => sql.placeholder(name);
  return (
    db
      .insert(webhookDeliveries)
      .values({
        id: p("id"),
        projectId: p("projectId"),
        eventId: p("eventId"),
        eventType: p("eventType"),
        status: p("status"),
        // Bound as text (or null) in a fragment: the column's encoder would fail on a null Date.
        nextAttemptAt: sql`${p("nextAttemptAt")}::timestamptz`,
        leaseExpiresAt: sql`${p("leaseExpiresAt")}::timestamptz`,
        trigger: p("trigger"),
        createdAt: p("now"),
        updatedAt: p("now"),
      })
      // Rows back on every driver (without RETURNING, postgres-js and PGlite answer in different shapes).
      .returning({ id: webhookDeliveries.id })
  );
});

/** A delivery this process attempts itself once its caller commits (direct.ts): pending, leased, no job. */
export interface LeasedDelivery {
  id: string;
  projectId: string;
  eventId: string;
  eventType: string;
  /** The event's time: the delivery's created_at and first attempt. */
  at: Date;
  leaseExpiresAt: Date;
}

/** Leased deliveries of a run of events (events/leased-deliveries.ts), in one multi-row insert. */
export async function insertLeasedDeliveries(db: Db, deliveries: LeasedDelivery[]): Promise<void> {
  if (!deliveries.length) return;
  const rows = deliveries.map((d) => ({
    id: d.id,
    projectId: d.projectId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: "pending" as const,
    nextAttemptAt: d.at,
    leaseExpiresAt: d.leaseExpiresAt,
    trigger: "event" as const,
    createdAt: d.at,
    updatedAt: d.at,
  }));
  await db.execute(insertRowsSql(webhookDeliveries, rows));
}

export async function sendAttempt(db: Db, queue: TypedJobQueue, job: DeliveryJob, projectId: string, startAfter?: Date): Promise<void> {
  await queue.send(WEBHOOK_DELIVER_JOB, job, { tx: db, ...attemptJobOptions(job, projectId), ...(startAfter ? { startAfter } : {}) });
}

/** An attempt's job: one per delivery and attempt (a retried send is no second job), in its project's group. */
export function attemptJobOptions(job: DeliveryJob, projectId: string) {
  return { singletonKey: `${job.deliveryId}:${job.attempt}`, group: projectId };
}

/** After the webhook is updated: un-pause and send everything that waited. */
export async function resumeDeliveries(db: Db, queue: TypedJobQueue, projectId: string, now: Date): Promise<number> {
  const waiting = await db
    .update(webhookDeliveries)
    .set({ status: "pending", nextAttemptAt: now, updatedAt: now })
    .where(and(eq(webhookDeliveries.projectId, projectId), eq(webhookDeliveries.status, "paused")))
    .returning({ id: webhookDeliveries.id, attemptCount: webhookDeliveries.attemptCount });
  for (const delivery of waiting) await sendAttempt(db, queue, { deliveryId: delivery.id, attempt: delivery.attemptCount + 1 }, projectId);
  return waiting.length;
}
