import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db, Tx } from "./types";

/** Whether `db` is a caller's transaction (PGlite's and postgres-js's both extend drizzle's PgTransaction). */
export function isTransaction(db: Db): boolean {
  return (db as unknown) instanceof PgTransaction;
}

/** What a statement inside a transaction leaves to its outcome (transactionWithOutcome). */
export interface TransactionOutcome {
  /** Runs once the transaction has committed. */
  committed(then: () => void): void;
  /** Runs when it did not commit (the callback threw, or COMMIT failed). */
  rolledBack(then: () => void): void;
}

const outcomes = new WeakMap<object, { committed: (() => void)[]; rolledBack: (() => void)[] }>();

/**
 * `db.transaction(work)`, where a statement can leave work to the transaction's outcome (outcomeOf): a
 * job written already taken runs in this process once it is committed (job-insert.ts runHere). Only
 * a top-level transaction has an outcome: a savepoint's release commits nothing, so inside a caller's
 * transaction this is a plain nested transaction and outcomeOf finds none.
 */
export async function transactionWithOutcome<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (isTransaction(db)) return db.transaction(work);
  const hooks = { committed: [] as (() => void)[], rolledBack: [] as (() => void)[] };
  let result: T;
  try {
    result = await db.transaction((tx) => {
      outcomes.set(tx, hooks);
      return work(tx);
    });
  } catch (error) {
    for (const then of hooks.rolledBack) then();
    throw error;
  }
  for (const then of hooks.committed) then();
  return result;
}

/** The outcome of the top-level transaction `db` is (transactionWithOutcome), or null: not one, or not made so. */
export function outcomeOf(db: Db): TransactionOutcome | null {
  const hooks = outcomes.get(db);
  if (!hooks) return null;
  return { committed: (then) => void hooks.committed.push(then), rolledBack: (then) => void hooks.rolledBack.push(then) };
}
