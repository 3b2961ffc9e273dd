// A customer's message and its message.received in one statement: the last write of ingest's hot path.
import { sql, type SQL } from "drizzle-orm";
import { jobPayload, statementWithJob, type JobInsert } from "@/lib/ports/queue/job-insert";
import type { Db } from "@/lib/ports/db/types";
import type { QueuedJob } from "@/lib/domain/shared/reactions";
import { builtOnceSql } from "@/lib/ports/db/prepared";
import { WEBHOOK_DELIVER_JOB } from "@/lib/domain/webhooks/enqueue";
import { perCte } from "@/lib/ports/db/prepared";
import { inboundMessageInsertSql, inboundMessageValues, type InboundMessageInsert } from "@/lib/domain/conversations";
import { deliveringEventSql, deliveringEventValues, deliveringOutcome, type DeliveringRow } from "@/lib/domain/events/insert-delivering";
import { deliveringEventOf, recordedEventSql, recordedEventValues, settleDeliveringEvent, type EventInput } from "@/lib/domain/events";
import type { SystemCtx } from "@/lib/domain/context";

/** The event's placeholders are named with it: the message's own names (id, type…) hold the message's values. */
const EVENT = "event_";

/**
 * insertInboundMessage, then emitEvent of its message.received for the webhook, as ONE statement in the
 * caller's transaction: the event, its delivery and its job (or the direct attempt's lease) are written
 * only when the message is, so a provider's repeat writes neither. `alongside` is the caller's own CTE
 * (SystemCtx.withItemWrite). `event` must go to the webhook now (deliver, not deferred).
 */
export async function insertInboundMessageAnnounced(
  ctx: SystemCtx,
  row: InboundMessageInsert,
  alongside: { cte: SQL; values: Record<string, unknown> } | null,
  event: EventInput,
): Promise<{ stored: boolean; eventId: string | null }> {
  const delivering = deliveringEventOf(ctx, event);
  const values = { ...inboundMessageValues(row), ...alongside?.values, ...deliveringEventValues(delivering, EVENT) };
  const statement = alongside ? announcedAlongside(alongside.cte) : announced;
  const [result] = (await statement(ctx.db, ctx.ports.queue.insertion(WEBHOOK_DELIVER_JOB), values)) as (DeliveringRow & { message_stored: number })[];
  const eventId = settleDeliveringEvent(ctx, delivering, deliveringOutcome(result, delivering));
  return { stored: (result?.message_stored ?? 0) > 0, eventId };
}

function announcedStatement(name: string, cte: SQL | null) {
  return statementWithJob(name, (job, db) => {
    const event = deliveringEventSql(job, EVENT, sql`exists (select 1 from "inserted")`);
    return sql`with "inserted" as (${inboundMessageInsertSql(db)})${cte ?? sql``}, ${event.ctes} select (select count(*) from "inserted")::int as "message_stored", ${event.select}`;
  });
}

const announced = announcedStatement("message_insert_inbound_announced", null);

/** One statement per alongside CTE (there is one: the ingest's envelope mark). */
const announcedAlongside = perCte((cte) => announcedStatement("message_insert_inbound_announced_alongside", cte));

/**
 * insertInboundMessage, then emitEvent of a message.received that goes to no webhook now (the channel
 * routes FLOWS, NONE or to an agent, or the event waits for the message's files), as ONE statement in
 * the caller's transaction: the event is written only when the message is, so a provider's repeat
 * writes neither. It was two statements inside the transaction that holds the conversation's row.
 * `job` (a feature's, inboundMessageJobs: an automation's evaluation under FLOWS) is written by the
 * same statement, also only when the message is: it was a third.
 */
export async function insertInboundMessageRecorded(
  ctx: SystemCtx,
  row: InboundMessageInsert,
  alongside: { cte: SQL; values: Record<string, unknown> } | null,
  event: EventInput,
  job: QueuedJob | null = null,
): Promise<{ stored: boolean; eventId: string | null }> {
  const recorded = recordedEventValues(ctx, event, EVENT);
  const values = { ...inboundMessageValues(row), ...alongside?.values, ...recorded.values };
  const [result] = job
    ? ((await (alongside ? recordedWithJobAlongside(alongside.cte) : recordedWithJob)(ctx.db, ctx.ports.queue.insertion(job.name), {
        ...values,
        [TURN_JOB]: jobPayload(job.name, job.data),
      })) as RecordedRow[])
    : await (alongside ? recordedAlongside(alongside.cte) : recordedAlone)(ctx.db, values);
  return { stored: (result?.message_stored ?? 0) > 0, eventId: (result?.event_stored ?? 0) > 0 ? recorded.id : null };
}

type RecordedRow = { message_stored: number; event_stored: number };

/** The job's placeholder: no message or event value has this name. */
const TURN_JOB = "turn_job";

function recordedSql(db: Db, cte: SQL | null, job: JobInsert | null): SQL {
  const stored = sql`exists (select 1 from "inserted")`;
  // The job's rows, as pg-boss's insert reads them: the one job when the message was stored, none otherwise.
  const jobCtes = job ? job.ctes(TURN_JOB, sql`(case when ${stored} then ${sql.placeholder(TURN_JOB)} else '[]' end)`) : sql``;
  const notified = job ? sql`, ${job.notifiedColumn(TURN_JOB)} as "notified"` : sql``;
  return sql`with "inserted" as (${inboundMessageInsertSql(db)})${cte ?? sql``}, ${recordedEventSql(EVENT, stored)}${jobCtes}
    select (select count(*) from "inserted")::int as "message_stored", (select count(*) from "event_inserted")::int as "event_stored"${notified}`;
}

function recordedStatement(name: string, cte: SQL | null) {
  return builtOnceSql<RecordedRow>(name, (db) => recordedSql(db, cte, null));
}

const recordedAlone = recordedStatement("message_insert_inbound_recorded", null);

/** One statement per alongside CTE (there is one: the ingest's envelope mark). */
const recordedAlongside = perCte((cte) => recordedStatement("message_insert_inbound_recorded_alongside", cte));

// statementWithJob builds its SQL once per queue (each insertion it is given); the name only labels it.
const recordedWithJob = statementWithJob("message_insert_inbound_recorded_job", (job, db) => recordedSql(db, null, job));

/** One statement per alongside CTE (there is one: the ingest's envelope mark). */
const recordedWithJobAlongside = perCte((cte) => statementWithJob("message_insert_inbound_recorded_alongside_job", (job, db) => recordedSql(db, cte, job)));
