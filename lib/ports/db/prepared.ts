import { sql, type SQL } from "drizzle-orm";
import type { Db } from "./types";
import { isTransaction } from "./transaction";

/**
 * A query drizzle builds once per database handle (`.prepare()` with placeholders), for the hottest
 * statements: building SQL from the query builder was about a quarter of the web process's CPU per
 * POST /messages. A handle that is a transaction gets its own prepared query (it runs on the session
 * it was prepared on, so a caller inside a transaction stays inside it), made from the SQL the first
 * handle built: building it again for every transaction was a visible share of ingest's CPU.
 */
export function preparedPerDb<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  let template: PreparedTemplate | null | undefined;
  return (db) => {
    let query = built.get(db);
    if (query) return query;
    if (template && isTransaction(db)) {
      query = preparedOn(db, template) as T;
    } else {
      query = build(db);
      if (template === undefined) template = templateOf(query);
    }
    built.set(db, query);
    return query;
  };
}

/** What a prepared builder query carries that another session can prepare again (drizzle-orm is pinned). */
interface PreparedTemplate {
  queryString: string;
  params: unknown[];
  fields: unknown;
  joinsNotNullableMap: unknown;
}

/** null: not a plain prepared query (a relational query's custom mapper): every handle builds its own. */
function templateOf(query: unknown): PreparedTemplate | null {
  const q = query as Partial<PreparedTemplate> & { customResultMapper?: unknown };
  if (typeof q.queryString !== "string" || !Array.isArray(q.params) || q.customResultMapper) return null;
  return { queryString: q.queryString, params: q.params, fields: q.fields, joinsNotNullableMap: q.joinsNotNullableMap };
}

function preparedOn(db: Db, template: PreparedTemplate): unknown {
  const session = (db as unknown as SessionOf).session;
  const query = session.prepareQuery({ sql: template.queryString, params: template.params }, template.fields, "", Boolean(template.fields));
  // The select builder sets it after preparing: which joined tables may be all-null (a left join's miss).
  return Object.assign(query, { joinsNotNullableMap: template.joinsNotNullableMap });
}

interface BuiltQuery {
  queryString: string;
  params: unknown[];
  fields: unknown;
}
interface SessionOf {
  session: {
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: unknown,
      name: string,
      isResponseInArrayMode: boolean,
    ): { execute(values: Record<string, unknown>): Promise<unknown[]> };
  };
}

/**
 * A statement whose SQL drizzle builds once, then runs on any handle, a transaction included (where
 * preparedPerDb would build it again for every transaction). For the hottest statements inside the
 * send and ingest transactions. `build` returns the query builder (with placeholders); it is prepared
 * under `name` once, and its text, parameters and result fields are reused on each handle's own
 * session (drizzle-orm is pinned: checked at first use).
 */
export function builtOnce<R>(
  name: string,
  build: (db: Db) => { prepare(name: string): { execute(values?: Record<string, unknown>): Promise<R[]> } },
): (db: Db, values: Record<string, unknown>) => Promise<R[]> {
  let built: BuiltQuery | null = null;
  return (db, values) => {
    if (!built) {
      const query = build(db).prepare(name) as unknown as BuiltQuery;
      if (typeof query.queryString !== "string" || !Array.isArray(query.params))
        throw new Error("drizzle-orm: a prepared query no longer exposes queryString and params (drizzle-orm upgraded?)");
      built = query;
    }
    const session = (db as unknown as SessionOf).session;
    return session.prepareQuery({ sql: built.queryString, params: built.params }, built.fields, name, true).execute(values) as Promise<R[]>;
  };
}

interface DialectOf {
  dialect: { sqlToQuery(sql: SQL): { sql: string; params: unknown[] } };
}

/**
 * builtOnce for a statement written as SQL (data-modifying CTEs the query builder cannot compose):
 * its text is rendered once under `name`; rows come back as objects keyed by the SELECT's column names.
 */
export function builtOnceSql<R>(name: string, build: (db: Db) => SQL): (db: Db, values: Record<string, unknown>) => Promise<R[]> {
  let built: { sql: string; params: unknown[] } | null = null;
  return (db, values) => {
    built ??= (db as unknown as DialectOf).dialect.sqlToQuery(build(db));
    const session = (db as unknown as SessionOf).session;
    // postgres-js answers the rows; PGlite a result holding them.
    return session
      .prepareQuery(built, undefined, name, false)
      .execute(values)
      .then((result) => (Array.isArray(result) ? result : (result as unknown as { rows: R[] }).rows) as R[]);
  };
}

/**
 * An insert's values as one placeholder per column (named after it), each bound through the column's
 * encoder with nullAsSqlNull: for a statement built once over a fixed column list.
 */
export function columnPlaceholders<C extends string>(table: Record<C, { mapToDriverValue(value: unknown): unknown }>, columns: readonly C[]): Record<C, SQL> {
  return Object.fromEntries(columns.map((column) => [column, sql`${sql.param(sql.placeholder(column), nullAsSqlNull(table[column]))}`])) as Record<C, SQL>;
}

/**
 * A placeholder column's own encoder, except that a null (or a column the row leaves unset) is bound as
 * SQL NULL: the jsonb encoder would store JSON null, the timestamp one would fail on it. An unset
 * column's default is NULL anyway, so binding NULL stores the row an insert without the column would
 * (what drizzle binds for a null given directly, outside a placeholder).
 */
function nullAsSqlNull(column: { mapToDriverValue(value: unknown): unknown }) {
  return { mapToDriverValue: (value: unknown) => (value === null || value === undefined ? null : column.mapToDriverValue(value)) };
}

/** A statement built once for each CTE a caller adds (each such CTE is a module constant, so there are few). */
export function perCte<T>(build: (cte: SQL) => T): (cte: SQL) => T {
  const built = new WeakMap<SQL, T>();
  return (cte) => {
    let statement = built.get(cte);
    if (!statement) built.set(cte, (statement = build(cte)));
    return statement;
  };
}
