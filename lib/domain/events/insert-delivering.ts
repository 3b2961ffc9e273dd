import { sql, type SQL } from "drizzle-orm";
import { events, projects, webhookDeliveries } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { jobOf, statementWithJob, type JobInsert } from "@/lib/ports/queue/job-insert";
import type { TypedJobQueue } from "@/lib/jobs/catalog";
import { WEBHOOK_DELIVER_JOB, attemptJobOptions, type DeliveryJob } from "@/lib/domain/webhooks/enqueue";
import type { AttemptScope } from "@/lib/domain/webhooks/attempt";

/**
 * An event that goes to the webhook, its delivery and the delivery's first job, in ONE statement
 * (no round trip per part; README "Performance", issue 35). It writes what emitEvent's three steps
 * wrote: the event unless its dedupe key exists; only then, and only when the project has a
 * webhook_url, the delivery (paused while the endpoint is paused); and only for a pending delivery,
 * the attempt-1 job, with the same singleton key and group as sendAttempt's, unless the delivery is
 * leased to this process (leaseExpiresAt): then no job, and the caller attempts it after its commit.
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
  /**
   * Set when this process attempts the delivery itself once the caller commits (lib/domain/webhooks/direct.ts):
   * the delivery is written with this lease and no job.
   */
  leaseExpiresAt?: Date;
}

export interface DeliveringOutcome {
  /** False: its dedupe key exists, nothing was written. */
  stored: boolean;
  /** A pending delivery was written (not paused, the project has a webhook_url). */
  pending: boolean;
  /** For a pending delivery leased to this process: what its attempt reads, as this statement saw it. */
  scope?: AttemptScope;
}

/** The project's columns an attempt reads, as the final SELECT returns them for a leased delivery. */
interface ScopeColumns {
  webhook_url: string | null;
  webhook_paused_at: Date | string | null;
  webhook_failing_since: Date | string | null;
  webhook_secret_sealed: string | null;
  previous_webhook_secret_sealed: string | null;
  previous_webhook_secret_expires_at: Date | string | null;
}

const dateOf = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

export async function insertEventDelivering(db: Db, queue: TypedJobQueue, event: DeliveringEvent): Promise<DeliveringOutcome> {
  const [row] = (await statement(db, queue.insertion(WEBHOOK_DELIVER_JOB), deliveringEventValues(event, ""))) as DeliveringRow[];
  return deliveringOutcome(row, event);
}

/** The columns deliveringEventSql's SELECT adds to the statement's one row. */
export type DeliveringRow = { stored: number; pending: number } & ScopeColumns;

/** The event's placeholder values, named with `prefix` (a statement holding other rows' placeholders too). */
export function deliveringEventValues(event: DeliveringEvent, prefix: string): Record<string, unknown> {
  const fields = deliveringEventFields(event);
  const values = { ...fields, payload: JSON.stringify(fields.payload), job: JSON.stringify([fields.job]) };
  return prefix ? Object.fromEntries(Object.entries(values).map(([name, value]) => [prefix + name, value])) : values;
}

/** What both statements write of an event: its row, its delivery's, and the delivery's first job (pg-boss's shape). */
function deliveringEventFields(event: DeliveringEvent) {
  const job: DeliveryJob = { deliveryId: event.deliveryId, attempt: 1 };
  return {
    id: event.id,
    projectId: event.projectId,
    type: event.type,
    payload: event.payload,
    route: event.route,
    dedupeKey: event.dedupeKey,
    at: event.createdAt.toISOString(),
    deliveryId: event.deliveryId,
    leaseExpiresAt: event.leaseExpiresAt?.toISOString() ?? null,
    job: jobOf(WEBHOOK_DELIVER_JOB, job, attemptJobOptions(job, event.projectId)),
  };
}

/** What the statement's row says was written: see DeliveringOutcome. */
export function deliveringOutcome(row: DeliveringRow | undefined, event: DeliveringEvent): DeliveringOutcome {
  const stored = (row?.stored ?? 0) > 0;
  const pending = (row?.pending ?? 0) > 0;
  if (!row || !pending || !event.leaseExpiresAt) return { stored, pending };
  const scope: AttemptScope = {
    delivery: { id: event.deliveryId, status: "pending", attemptCount: 0 },
    event: { id: event.id, type: event.type, payload: event.payload },
    project: {
      id: event.projectId,
      webhookUrl: row.webhook_url,
      webhookPausedAt: dateOf(row.webhook_paused_at),
      webhookFailingSince: dateOf(row.webhook_failing_since),
      webhookSecretSealed: row.webhook_secret_sealed,
      previousWebhookSecretSealed: row.previous_webhook_secret_sealed,
      previousWebhookSecretExpiresAt: dateOf(row.previous_webhook_secret_expires_at),
    },
  };
  return { stored, pending, scope };
}

/**
 * The event's part of a statement, to hold beside other CTEs: `ctes` writes the event,
 * its delivery and its job; `select` is the final SELECT's columns and FROM, one row. `prefix` names
 * its placeholders (deliveringEventValues); `when`, if set, is a condition the event needs besides its
 * dedupe key (the message it announces was stored by the same statement).
 */
export function deliveringEventSql(job: JobInsert, prefix: string, when: SQL | null): { ctes: SQL; select: SQL } {
  const p = (name: string) => sql`${sql.placeholder(prefix + name)}`;
  const at = sql`${p("at")}::text::timestamptz`;
  const inserted = sql`insert into ${events} ("id", "project_id", "type", "payload", "deliver", "route", "dedupe_key", "created_at")
    select ${p("id")}, ${p("projectId")}, ${p("type")}, ${p("payload")}::text::jsonb, true, ${p("route")}, ${p("dedupeKey")}::text, ${at}
    ${when ? sql`where ${when}` : sql``}
    on conflict do nothing returning "id"`;
  const target = sql`select ${projects.webhookUrl} as "url", ${projects.webhookPausedAt} as "paused_at", ${projects.webhookFailingSince} as "failing_since",
      ${projects.webhookSecretSealed} as "secret", ${projects.previousWebhookSecretSealed} as "previous_secret",
      ${projects.previousWebhookSecretExpiresAt} as "previous_expires_at" from ${projects}
    where ${projects.id} = ${p("projectId")} and exists (select 1 from "event_inserted")`;
  const lease = sql`${p("leaseExpiresAt")}::text::timestamptz`;
  const delivery = sql`insert into ${webhookDeliveries} ("id", "project_id", "event_id", "event_type", "status", "next_attempt_at", "trigger", "lease_expires_at", "created_at", "updated_at")
    select ${p("deliveryId")}, ${p("projectId")}, ${p("id")}, ${p("type")},
      case when "paused_at" is null then 'pending' else 'paused' end,
      case when "paused_at" is null then ${at} end,
      'event', case when "paused_at" is null then ${lease} end, ${at}, ${at}
    from "target" where "url" is not null returning "status"`;
  // The job's rows: one while the delivery is pending and not leased to this process, none otherwise
  // (pg-boss's insert reads them as a recordset).
  const jobs = sql`(case when ${lease} is null and exists (select 1 from "delivery" where "status" = 'pending') then ${p("job")} else '[]' end)`;
  return {
    ctes: sql`"event_inserted" as (${inserted}), "target" as (${target}), "delivery" as (${delivery})${job.ctes("job", jobs)}`,
    select: sql`(select count(*) from "event_inserted")::int as "stored", (select count(*) from "delivery" where "status" = 'pending')::int as "pending",
      ${job.notifiedColumn("job")} as "notified", "target"."url" as "webhook_url", "target"."paused_at" as "webhook_paused_at",
      "target"."failing_since" as "webhook_failing_since", "target"."secret" as "webhook_secret_sealed",
      "target"."previous_secret" as "previous_webhook_secret_sealed", "target"."previous_expires_at" as "previous_webhook_secret_expires_at"
    from (select 1) as "one" left join "target" on true`,
  };
}

const statement = statementWithJob("event_insert_delivering", (job) => {
  const event = deliveringEventSql(job, "", null);
  return sql`with ${event.ctes} select ${event.select}`;
});

/**
 * Many events for the webhook in one statement (an envelope's statuses): deliveringEventSql for a set.
 * The events come as one JSON parameter (`param`, deliveringEventsValue), each with a `key` that the
 * caller's CTE `keysCte` (a column "id") must hold for the event to be written (the message whose
 * status moved in the same statement). Each project's webhook target is read once; a pending
 * delivery leased to this process gets no job, the others their attempt-1 job, written together.
 * `select` yields one row per event (DeliveringRows), in the order given.
 */
export function deliveringEventsSql(job: JobInsert, param: string, keysCte: string): { ctes: SQL; select: SQL } {
  const keys = sql.identifier(keysCte);
  const given = sql`select * from jsonb_to_recordset(${sql.placeholder(param)}::text::jsonb) as "e"("ord" int, "key" text, "id" text, "projectId" text, "type" text,
      "payload" jsonb, "route" text, "dedupeKey" text, "at" timestamptz, "deliveryId" text, "leaseExpiresAt" timestamptz, "job" jsonb)`;
  const inserted = sql`insert into ${events} ("id", "project_id", "type", "payload", "deliver", "route", "dedupe_key", "created_at")
    select "id", "projectId", "type", "payload", true, "route", "dedupeKey", "at" from "e" where "key" in (select "id" from ${keys}) order by "ord"
    on conflict do nothing returning "id", "project_id"`;
  const target = sql`select ${projects.id} as "id", ${projects.webhookUrl} as "url", ${projects.webhookPausedAt} as "paused_at",
      ${projects.webhookFailingSince} as "failing_since", ${projects.webhookSecretSealed} as "secret", ${projects.previousWebhookSecretSealed} as "previous_secret",
      ${projects.previousWebhookSecretExpiresAt} as "previous_expires_at" from ${projects}
    where ${projects.id} in (select "project_id" from "event_inserted")`;
  const delivery = sql`insert into ${webhookDeliveries} ("id", "project_id", "event_id", "event_type", "status", "next_attempt_at", "trigger", "lease_expires_at", "created_at", "updated_at")
    select "e"."deliveryId", "e"."projectId", "e"."id", "e"."type",
      case when "t"."paused_at" is null then 'pending' else 'paused' end,
      case when "t"."paused_at" is null then "e"."at" end,
      'event', case when "t"."paused_at" is null then "e"."leaseExpiresAt" end, "e"."at", "e"."at"
    from "e" join "event_inserted" "i" on "i"."id" = "e"."id" join "target" "t" on "t"."id" = "e"."projectId" where "t"."url" is not null
    returning "id", "event_id", "status"`;
  // The jobs' rows: one per pending delivery not leased to this process (pg-boss's insert reads them as a recordset).
  const jobs = sql`(select coalesce(jsonb_agg("e"."job" order by "e"."ord"), '[]'::jsonb) from "e" join "delivery" "d" on "d"."event_id" = "e"."id"
    where "d"."status" = 'pending' and "e"."leaseExpiresAt" is null)`;
  return {
    ctes: sql`"e" as (${given}), "event_inserted" as (${inserted}), "target" as (${target}), "delivery" as (${delivery})${job.ctes("job", jobs)}`,
    select: sql`"e"."ord", "e"."key", ("i"."id" is not null)::int as "stored", coalesce("d"."status" = 'pending', false)::int as "pending",
      ${job.notifiedColumn("job")} as "notified", "t"."url" as "webhook_url", "t"."paused_at" as "webhook_paused_at",
      "t"."failing_since" as "webhook_failing_since", "t"."secret" as "webhook_secret_sealed",
      "t"."previous_secret" as "previous_webhook_secret_sealed", "t"."previous_expires_at" as "previous_webhook_secret_expires_at"
    from "e" left join "event_inserted" "i" on "i"."id" = "e"."id" left join "delivery" "d" on "d"."event_id" = "e"."id"
      left join "target" "t" on "t"."id" = "e"."projectId" order by "e"."ord"`,
  };
}

/** deliveringEventsSql's parameter: the events, each with the key its write waits for. */
export function deliveringEventsValue(keyed: { key: string; event: DeliveringEvent }[]): string {
  return JSON.stringify(keyed.map(({ key, event }, ord) => ({ ord, key, ...deliveringEventFields(event) })));
}
