import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "@/lib/db/schema";

/** The one database type the domain sees: PGlite and postgres-js both give a PgDatabase over one schema. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction handle is used exactly like a Db. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface DatabaseHandle {
  db: Db;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}
