import { getTableColumns, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./types";

/**
 * Many rows in one jsonb parameter. For hundreds of rows, drizzle's `.values(rows)` builds one
 * placeholder per cell: 53 ms for a batch of 200 message rows in the broadcast sender's profile, and
 * a statement text per row count. Here the text depends only on the columns, so it is built in
 * microseconds and prepared once; Postgres turns the JSON back into typed rows (enums, timestamps
 * and jsonb columns included) with jsonb_populate_recordset over the table's own row type.
 */

/** `insert into <table> (<columns>) select <columns> from <the rows>`, with `tail` (on conflict, returning) after it. */
export function insertRowsSql<T extends PgTable>(table: T, rows: Partial<T["$inferInsert"]>[], tail: SQL = sql``): SQL {
  const columns = columnsOf(table, rows);
  const names = sql.join(
    columns.map(([, column]) => sql.identifier(column)),
    sql`, `,
  );
  // A Date needs no conversion: JSON.stringify writes it as its toISOString() (Date.prototype.toJSON).
  const json = rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [key, column] of columns) out[column] = (row as Record<string, unknown>)[key];
    return out;
  });
  return sql`insert into ${table} (${names}) select ${names} from jsonb_populate_recordset(null::${table}, ${JSON.stringify(json)}::jsonb) ${tail}`;
}

/** The rows a raw statement returned (postgres-js gives an array, PGlite `{ rows }`). */
export async function executeRows<R>(db: Db, query: SQL): Promise<R[]> {
  const result = (await db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: R[] }).rows) as R[];
}

/**
 * Every row must set the same properties: one left out would be NULL here, where drizzle's values()
 * would give the column its default. [property, column name] pairs.
 */
function columnsOf(table: PgTable, rows: Record<string, unknown>[]): [string, string][] {
  if (rows.length === 0) throw new Error("insertRowsSql: no rows");
  const all = getTableColumns(table);
  const keys = Object.keys(rows[0]!).filter((key) => rows[0]![key] !== undefined);
  const expected = new Set(keys);
  for (const row of rows) {
    let set = 0;
    for (const key of Object.keys(row)) {
      if (row[key] === undefined) continue;
      if (!expected.has(key)) throw new Error("insertRowsSql: every row must set the same columns");
      set++;
    }
    if (set !== keys.length) throw new Error("insertRowsSql: every row must set the same columns");
  }
  return keys.map((key) => {
    const column = all[key];
    if (!column) throw new Error(`insertRowsSql: ${key} is not a column`);
    return [key, column.name];
  });
}

/**
 * `<column> = any(<the keys>)`, one text[] parameter. An UPDATE that joins its rows from a jsonb
 * recordset names them here too, so the table is reached through its index whatever the planner
 * believes of its size: joined to the recordset alone, a plan made while the table was small (and kept
 * by the prepared statement until the next analyze) hash-joined a sequential scan of all of it, 3,700
 * pages to update 10 rows. One parameter keeps one statement text for any number of keys.
 */
export function anyOf(column: SQL | AnyColumn, keys: string[]): SQL {
  return sql`${column} = any(${textArray(keys)}::text[])`;
}

/** A Postgres array literal: every element quoted, so commas, braces and quotes in a key stay inside it. */
function textArray(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(",")}}`;
}
