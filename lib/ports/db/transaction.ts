import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db } from "./types";

/** Whether `db` is a caller's transaction (PGlite's and postgres-js's both extend drizzle's PgTransaction). */
export function isTransaction(db: Db): boolean {
  return (db as unknown) instanceof PgTransaction;
}
