// The guarded forward move of messages' statuses, as SQL: every path that moves a status writes it so.
import { sql, type SQL } from "drizzle-orm";
import { messages } from "@/lib/db/schema";

/** The forward move applyStatus makes: the message, the status it reaches, what it may move from. */
export interface GuardedMove {
  id: string;
  status: string;
  /** The failure kept on the row, as JSON text ('null': none). */
  failure: string;
  at: string;
  /** Every status it may move from, comma-separated (statusesMovableTo). */
  from: string;
}

/** A message's move in a run (applyStatuses): GuardedMove with its failure as JSON, not text. */
export interface SetMove {
  id: string;
  status: string;
  failure: unknown;
  at: string;
  from: string;
}

const p = (name: string) => sql`${sql.placeholder(name)}`;

/**
 * One message's guarded move, RETURNING its id when it moved (its placeholders: moveValues). The guard
 * is the forward-only rule (`from`), not the status it was read with. The failure is bound as JSON
 * text; 'null' (no failure) is stored as SQL NULL, as the column holds it, never JSON null.
 */
export function guardedMoveSql(): SQL {
  return sql`update ${messages} set "status" = ${p("moveStatus")}::text, "failure" = nullif(${p("moveFailure")}::text, 'null')::jsonb,
      "updated_at" = ${p("moveAt")}::text::timestamptz
    where "id" = ${p("moveId")} and "status"::text = any(string_to_array(${p("moveFrom")}::text, ',')) returning "id"`;
}

export function moveValues(move: GuardedMove): Record<string, unknown> {
  return { moveId: move.id, moveStatus: move.status, moveFailure: move.failure, moveAt: move.at, moveFrom: move.from };
}

/**
 * A run's guarded moves as two CTEs, `"v"` (the moves given) and `"moved"` (the ids of the rows that
 * moved), with the placeholders of movesValues. Rows are locked in the moves' order: callers give them
 * in id order, so concurrent runs do not deadlock.
 */
export function guardedMovesCtes(): SQL {
  const given = sql`select * from jsonb_to_recordset(${p("moves")}::text::jsonb) as "v"("id" text, "from" text, "status" text, "failure" jsonb, "at" text)`;
  const moved = sql`update ${messages} set "status" = "v"."status", "failure" = "v"."failure", "updated_at" = "v"."at"::timestamptz from "v"
    where ${messages.id} = "v"."id" and ${messages.id} = any(string_to_array(${p("moveIds")}::text, ','))
      and ${messages.status}::text = any(string_to_array("v"."from", ',')) returning ${messages.id} as "id"`;
  return sql`"v" as (${given}), "moved" as (${moved})`;
}

export function movesValues(moves: SetMove[]): Record<string, unknown> {
  return { moves: JSON.stringify(moves), moveIds: moves.map((move) => move.id).join(",") };
}
