import { sql } from "drizzle-orm";
import { events, projects, webhookDeliveries } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { jobPayload, statementWithJob } from "@/lib/ports/queue/job-insert";
import type { TypedJobQueue } from "@/lib/jobs/catalog";
import { WEBHOOK_DELIVER_JOB, attemptJobOptions, type DeliveryJob } from "@/lib/domain/webhooks/enqueue";

/**
 * An event that goes to the webhook, its delivery and the delivery's first job, in ONE statement
 * (no round trip per part; README "Performance", issue 35). It writes what emitEvent's three steps
 * wrote: the event unless its dedupe key exists; only then, and only when the project has a
 * webhook_url, the delivery (paused while the endpoint is paused); and only for a pending delivery,
 * the attempt-1 job, with the same singleton key and group as sendAttempt's.
 */

export interface DeliveringEvent {
  id: string;
  projectId: string;
  type: string;
  payload: Record<string, unknown>;
  route: string;
  dedupeKey: string | null;
  createdAt: Date;
  /** The delivery's id, used only when a delivery is written. */
  deliveryId: string;
}

/** Returns whether the event was stored (false: its dedupe key exists, nothing was written). */
export async function insertEventDelivering(db: Db, queue: TypedJobQueue, event: DeliveringEvent): Promise<boolean> {
  const at = event.createdAt.toISOString();
  const job: DeliveryJob = { deliveryId: event.deliveryId, attempt: 1 };
  const values = {
    id: event.id,
    projectId: event.projectId,
    type: event.type,
    payload: JSON.stringify(event.payload),
    route: event.route,
    dedupeKey: event.dedupeKey,
    at,
    deliveryId: event.deliveryId,
    job: jobPayload(WEBHOOK_DELIVER_JOB, job, attemptJobOptions(job, event.projectId)),
  };
  const [row] = (await statement(db, queue.insertion(WEBHOOK_DELIVER_JOB), values)) as { stored: number }[];
  return (row?.stored ?? 0) > 0;
}

const statement = statementWithJob("event_insert_delivering", (job) => {
  const p = (name: string) => sql`${sql.placeholder(name)}`;
  const at = sql`${p("at")}::text::timestamptz`;
  const inserted = sql`insert into ${events} ("id", "project_id", "type", "payload", "deliver", "route", "dedupe_key", "created_at")
    values (${p("id")}, ${p("projectId")}, ${p("type")}, ${p("payload")}::text::jsonb, true, ${p("route")}, ${p("dedupeKey")}::text, ${at})
    on conflict do nothing returning "id"`;
  const target = sql`select ${projects.webhookUrl} as "url", ${projects.webhookPausedAt} as "paused_at" from ${projects}
    where ${projects.id} = ${p("projectId")} and exists (select 1 from "inserted")`;
  const delivery = sql`insert into ${webhookDeliveries} ("id", "project_id", "event_id", "event_type", "status", "next_attempt_at", "trigger", "created_at", "updated_at")
    select ${p("deliveryId")}, ${p("projectId")}, ${p("id")}, ${p("type")},
      case when "paused_at" is null then 'pending' else 'paused' end,
      case when "paused_at" is null then ${at} end,
      'event', ${at}, ${at}
    from "target" where "url" is not null returning "status"`;
  // The job's rows: one while the delivery is pending, none otherwise (pg-boss's insert reads them as a recordset).
  const jobs = sql`(case when exists (select 1 from "delivery" where "status" = 'pending') then ${p("job")} else '[]' end)`;
  return sql`with "inserted" as (${inserted}), "target" as (${target}), "delivery" as (${delivery})${job.ctes("job", jobs)}
    select (select count(*) from "inserted")::int as "stored", ${job.notifiedColumn("job")} as "notified"`;
});
