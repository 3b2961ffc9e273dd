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
