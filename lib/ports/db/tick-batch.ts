import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db } from "./types";

/**
 * Reads of one kind asked on the same handle in the same turn of the event loop, answered by ONE
 * statement (README "Performance", issue 35). The worker's pump starts every job of a fetch in one
 * synchronous loop, so the ingest jobs of a fetch ask for their envelope, their channel and their
 * dedupe check together, and the deliveries of a fetch for their lookup: one round trip for all of
 * them instead of one each. A statement costs Postgres about as much to receive as to run at this
 * size, and each is a socket write for the worker.
 *
 * The read is the same read, made at most one turn later (setImmediate): nothing is cached, and a key
 * asked twice in one turn shares the statement's answer. A failing statement fails every caller of its
 * batch, as each own query would have failed. Only for handles outside a transaction (a pool): a
 * transaction's queries are ordered, so its callers ask their own statement.
 */
export interface TickBatch<K, R> {
  (db: Db, key: K): Promise<R[]>;
}

export interface TickBatchOptions<K, R> {
  /** The same string for keys that ask the same thing (the batch asks each once). */
  keyOf(key: K): string;
  /** Which key a row answers (keyOf's string for it). */
  rowKey(row: R): string;
  /** One statement for all the batch's keys (distinct), its rows in any order. */
  load(db: Db, keys: K[]): Promise<R[]>;
  /** The most keys one statement carries; a bigger turn is split. */
  max?: number;
}

interface Pending<K, R> {
  keys: Map<string, { key: K; waiters: { resolve(rows: R[]): void; reject(error: unknown): void }[] }>;
}

export function tickBatch<K, R>(options: TickBatchOptions<K, R>): TickBatch<K, R> {
  const max = options.max ?? 100;
  const pending = new WeakMap<Db, Pending<K, R>>();
  return (db, key) => {
    if ((db as unknown) instanceof PgTransaction) return options.load(db, [key]);
    return new Promise<R[]>((resolve, reject) => {
      let batch = pending.get(db);
      if (!batch) {
        const fresh: Pending<K, R> = { keys: new Map() };
        pending.set(db, (batch = fresh));
        setImmediate(() => {
          pending.delete(db);
          void run(db, fresh);
        });
      }
      const id = options.keyOf(key);
      const entry = batch.keys.get(id);
      if (entry) entry.waiters.push({ resolve, reject });
      else batch.keys.set(id, { key, waiters: [{ resolve, reject }] });
    });
  };

  async function run(db: Db, batch: Pending<K, R>): Promise<void> {
    const entries = [...batch.keys.entries()];
    for (let start = 0; start < entries.length; start += max) {
      const slice = entries.slice(start, start + max);
      try {
        const rows = await options.load(
          db,
          slice.map(([, entry]) => entry.key),
        );
        const byKey = new Map<string, R[]>();
        for (const row of rows) {
          const id = options.rowKey(row);
          const list = byKey.get(id);
          if (list) list.push(row);
          else byKey.set(id, [row]);
        }
        for (const [id, entry] of slice) for (const waiter of entry.waiters) waiter.resolve([...(byKey.get(id) ?? [])]);
      } catch (error) {
        for (const [, entry] of slice) for (const waiter of entry.waiters) waiter.reject(error);
      }
    }
  }
}

/**
 * Writes of one kind on the same handle, many callers per statement: the first goes out at the end of
 * its turn, and those asked while it is being written go together in the next, as the pump batches
 * its completions. `write` answers one result per key, in the keys' order; each caller's promise
 * settles with its own when the statement carrying its key has (a failure rejects every caller of
 * that statement), so a caller goes on only once its write is committed.
 */
export function writeBehind<K, T = void>(write: (db: Db, keys: K[]) => Promise<T[]>, max = 500): (db: Db, key: K) => Promise<T> {
  interface Entry {
    key: K;
    resolve(result: T): void;
    reject(error: unknown): void;
  }
  const state = new WeakMap<Db, { queued: Entry[]; writing: boolean }>();
  return (db, key) => {
    if ((db as unknown) instanceof PgTransaction) return write(db, [key]).then((results) => results[0]!);
    return new Promise<T>((resolve, reject) => {
      let s = state.get(db);
      if (!s) state.set(db, (s = { queued: [], writing: false }));
      s.queued.push({ key, resolve, reject });
      if (s.queued.length === 1 && !s.writing) setImmediate(() => void drain(db, s!));
    });
  };

  async function drain(db: Db, s: { queued: Entry[]; writing: boolean }): Promise<void> {
    if (s.writing) return;
    s.writing = true;
    try {
      while (s.queued.length) {
        const batch = s.queued.splice(0, max);
        try {
          const results = await write(
            db,
            batch.map((entry) => entry.key),
          );
          batch.forEach((entry, i) => entry.resolve(results[i]!));
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      s.writing = false;
    }
  }
}
