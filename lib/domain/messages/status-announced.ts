import { sql, type SQL } from "drizzle-orm";
import type { ItemWriteAlongside, SystemCtx } from "@/lib/domain/context";
import { perCte } from "@/lib/ports/db/prepared";
import { deliveringEventOf, settleDeliveringEvent, type EventInput } from "@/lib/domain/events";
import {
  deliveringEventSql,
  deliveringEventsSql,
  deliveringEventsValue,
  deliveringEventValues,
  deliveringOutcome,
  type DeliveringRow,
} from "@/lib/domain/events/insert-delivering";
import { WEBHOOK_DELIVER_JOB } from "@/lib/domain/webhooks/enqueue";
import { statementWithJob } from "@/lib/ports/queue/job-insert";
import { guardedMoveSql, guardedMovesCtes, moveValues, movesValues, type GuardedMove, type SetMove } from "./status-move-sql";

/**
 * A status move and its message.status, with the event's delivery and job, in ONE statement: no
 * transaction, so the message's row is locked only while the statement runs. A provider's sent,
 * delivered and read of one message arrive in three envelopes applied at once; with BEGIN, UPDATE,
 * event, COMMIT each held the row across four round trips and the others waited on it (README
 * "Performance", issue 35). The event is written only when the guarded UPDATE moved the row.
 * For a move no reaction is concerned with (messageStatusMoved.concerns): a reaction runs in JS
 * between the move and its event, which one statement cannot hold. Returns whether it moved.
 */
export async function moveAnnounced(
  ctx: Pick<SystemCtx, "db" | "ports" | "direct">,
  move: GuardedMove,
  input: EventInput,
  alongside: ItemWriteAlongside | null,
): Promise<boolean> {
  const event = deliveringEventOf(ctx, input);
  const values = { ...deliveringEventValues(event, "event_"), ...moveValues(move), ...alongside?.values };
  const statement = alongside ? announcedAlongside(alongside.cte) : announced;
  // A slot reserved for a statement that throws goes back when the caller's batch closes (webhooks/direct.ts).
  const [row] = (await statement(ctx.db, ctx.ports.queue.insertion(WEBHOOK_DELIVER_JOB), values)) as (DeliveringRow & { moved: number })[];
  if (alongside) alongside.written = true;
  settleDeliveringEvent(ctx, event, deliveringOutcome(row, event));
  return (row?.moved ?? 0) > 0;
}

function announcedStatement(name: string, alongside: SQL | null) {
  return statementWithJob(name, (job) => {
    const event = deliveringEventSql(job, "event_", sql`exists (select 1 from "moved")`);
    return sql`with "moved" as (${guardedMoveSql()})${alongside ?? sql``}, ${event.ctes} select (select count(*) from "moved")::int as "moved", ${event.select}`;
  });
}

const announced = announcedStatement("message_status_move_announced", null);

/** One statement per alongside CTE (there is one: the ingest's envelope mark). */
const announcedAlongside = perCte((cte) => announcedStatement("message_status_move_announced_alongside", cte));

/**
 * moveAnnounced for an envelope's run of statuses (applyStatuses): every message's guarded move, and
 * the message.status of each move whose message moved, with their deliveries and jobs, in ONE
 * statement. Before, the run's transaction held the moved rows through the events' insert, the
 * projects' read and the deliveries' insert, and a run naming the same messages (their delivered after
 * their sent) waited on it (README "Performance", issue 35). `moves` are in id order (rows are locked
 * in that order, so runs do not deadlock). Returns the ids of the messages that moved.
 */
export async function movesAnnounced(
  ctx: Pick<SystemCtx, "db" | "ports" | "direct">,
  moves: SetMove[],
  announced: { messageId: string; input: EventInput }[],
  alongside: ItemWriteAlongside | null,
): Promise<Set<string>> {
  const keyed = announced.map(({ messageId, input }) => ({ key: messageId, event: deliveringEventOf(ctx, input) }));
  const values = { ...movesValues(moves), events: deliveringEventsValue(keyed), ...alongside?.values };
  const statement = alongside ? manyAlongside(alongside.cte) : many;
  // A slot reserved for a statement that throws goes back when the caller's batch closes (webhooks/direct.ts).
  const rows = (await statement(ctx.db, ctx.ports.queue.insertion(WEBHOOK_DELIVER_JOB), values)) as (DeliveringRow & { ord: number; moved: number })[];
  if (alongside) alongside.written = true;
  const moved = new Set<string>();
  for (const row of rows) {
    const { key, event } = keyed[row.ord]!;
    settleDeliveringEvent(ctx, event, deliveringOutcome(row, event));
    if (row.moved > 0) moved.add(key);
  }
  return moved;
}

function manyStatement(name: string, alongside: SQL | null) {
  return statementWithJob(name, (job) => {
    const event = deliveringEventsSql(job, "events", "moved");
    return sql`with ${guardedMovesCtes()}${alongside ?? sql``}, ${event.ctes} select ("e"."key" in (select "id" from "moved"))::int as "moved", ${event.select}`;
  });
}

const many = manyStatement("message_status_moves_announced", null);

/** With the caller's write (the ingest's envelope mark, when the envelope is this one run of statuses). */
const manyAlongside = perCte((cte) => manyStatement("message_status_moves_announced_alongside", cte));
