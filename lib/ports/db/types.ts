import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { Sql } from "postgres";

/**
 * The one database type the domain sees: PGlite and postgres-js both give a PgDatabase. It carries no
 * relational schema (`db.query.*`): see DRIZZLE_CONFIG in open.ts.
 */
export type Db = PgDatabase<PgQueryResultHKT>;

/** A transaction handle is used exactly like a Db. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface DatabaseHandle {
  db: Db;
  kind: "pglite" | "postgres";
  /**
   * Postgres only: the queue's own small pool (open.ts QUEUE_POOL), whose sessions plan each prepared
   * statement once. Absent, the queue runs on the application's pool.
   */
  queueClient?: Sql;
  close(): Promise<void>;
}
