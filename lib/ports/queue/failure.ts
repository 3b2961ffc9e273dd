/**
 * The one line a failed job's row keeps (pg-boss's `output`), for every failure the workers record.
 * A handler's error can carry what it was working on: drizzle's message is "Failed query: <sql>\nparams:
 * <every parameter>", and Postgres quotes the offending value in some of its own messages (22P02
 * `invalid input syntax for type integer: "+1555…"`). Queue rows outlive the data they name (a
 * contact's erasure cannot find text it does not know), so a database error is stored as its SQLSTATE
 * and the schema names it concerns, anything else as the first line of its message; the whole error
 * still goes to the process log.
 */
const MAX_LENGTH = 300;

interface DatabaseErrorFields {
  code?: unknown;
  severity?: unknown;
  constraint?: unknown;
  constraint_name?: unknown;
  table?: unknown;
  table_name?: unknown;
  column?: unknown;
  column_name?: unknown;
}

/** The database's own error inside `error` (drizzle wraps it in `cause`): PGlite's and postgres-js's both carry a severity and a SQLSTATE. */
function databaseErrorOf(error: unknown): DatabaseErrorFields | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const fields = current as DatabaseErrorFields & { cause?: unknown };
    if (typeof fields.severity === "string" && typeof fields.code === "string" && /^[0-9A-Z]{5}$/.test(fields.code)) return fields;
    current = fields.cause;
  }
  return null;
}

function named(label: string, value: unknown): string | null {
  return typeof value === "string" && value ? `${label} ${value}` : null;
}

function databaseLine(fields: DatabaseErrorFields): string {
  const where = [
    named("constraint", fields.constraint ?? fields.constraint_name),
    named("table", fields.table ?? fields.table_name),
    named("column", fields.column ?? fields.column_name),
  ].filter(Boolean);
  return `database error ${String(fields.code)}${where.length ? ` (${where.join(", ")})` : ""}`;
}

export function jobFailureMessage(error: unknown): string {
  const database = databaseErrorOf(error);
  if (database) return databaseLine(database);
  const message = error instanceof Error ? error.message : String(error);
  // A wrapper that quoted drizzle's message: its query text goes too (its parameters are on the next line).
  const line = (message.split("\n", 1)[0] ?? "").replace(/Failed query:.*$/, "database error (query failed)");
  return line.length > MAX_LENGTH ? `${line.slice(0, MAX_LENGTH - 1)}…` : line;
}
