import type { Db } from "./types";

/**
 * A query drizzle builds once per database handle (`.prepare()` with placeholders), for the hottest
 * statements: building SQL from the query builder was about a quarter of the web process's CPU per
 * POST /messages. A handle that is a transaction gets its own copy (a prepared query runs on the
 * session it was built on), so a caller inside a transaction stays inside it.
 */
export function preparedPerDb<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let query = built.get(db);
    if (!query) built.set(db, (query = build(db)));
    return query;
  };
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

/**
 * A placeholder column's own encoder, except that a null (or a column the row leaves unset) is bound as
 * SQL NULL: the jsonb encoder would store JSON null, the timestamp one would fail on it. An unset
 * column's default is NULL anyway, so binding NULL stores the row an insert without the column would
 * (what drizzle binds for a null given directly, outside a placeholder).
 */
export function nullAsSqlNull(column: { mapToDriverValue(value: unknown): unknown }) {
  return { mapToDriverValue: (value: unknown) => (value === null || value === undefined ? null : column.mapToDriverValue(value)) };
}
