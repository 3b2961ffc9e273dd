import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { insertJobs, notifyChannelSql } from "pg-boss/dist/plans.js";
import { builtOnceSql } from "@/lib/ports/db/prepared";
import type { Db } from "@/lib/ports/db/types";
import { isTransaction } from "@/lib/ports/db/transaction";

/**
 * A job's insert as one part of the caller's own statement (README "Performance", issue 35): the
 * hottest writes (a send's message, a provider's envelope) and their job go to Postgres as ONE
 * statement of data-modifying CTEs instead of BEGIN, the row, pg-boss's insert and COMMIT, four round
 * trips whose socket writes were the web process's largest cost per request. One statement is atomic
 * on its own: the job exists if and only if the row does.
 *
 * The insert is pg-boss's own (plans.insertJobs, pg-boss pinned exactly in package.json), for the
 * queue's table, and the NOTIFY is pg-boss's channel and payload, so a worker sees exactly what
 * `boss.send` would have written. tests/queue/job-insert.test.ts compares the two rows column by
 * column, so an upgrade that changes either fails there first.
 *
 * Outside a transaction the statement leaves the NOTIFY out and wakes the workers once it has
 * committed, through the queue's coalesced wake-up (wake.ts): Postgres serialises every committing
 * transaction that notifies, its WAL flush included, behind one database-wide lock, which made the
 * NOTIFY in each send's statement the main wait of POST /messages under load (README "Performance").
 * Inside a caller's transaction the NOTIFY stays in the statement, so it goes out with the commit.
 */

export interface QueueShape {
  name: string;
  /** pgboss.queue.table_name: the (partition) table the queue's jobs live in. */
  table: string;
  notify: boolean;
  /** The queue's retry limit: what a job it runs here is told (JobRun.retryLimit), as a fetch would. */
  retryLimit?: number;
}

export interface JobInsertOptions {
  /** Jobs of one group (a project) share the queue's group concurrency cap. */
  group?: string;
  singletonKey?: string;
}

export interface JobInsert {
  /**
   * CTEs to put after the caller's own, comma first: `<name>` inserts the job (RETURNING id,
   * start_after); on a notify queue `<name>_notified` sends pg-boss's NOTIFY when the job is due now.
   * The caller's final SELECT must read `<name>_notified` (as `notifiedColumn` does) or Postgres never
   * evaluates it.
   */
  ctes(name: string, payload: SQL): SQL;
  /** An expression for the final SELECT that makes Postgres evaluate the NOTIFY CTE (always 0 or 1). */
  notifiedColumn(name: string): SQL;
  /**
   * The same insert without the NOTIFY (notifiedColumn is 0), and what wakes the workers after such a
   * statement committed: statementWithJob uses them outside a transaction.
   */
  silent: { insertion: JobInsert; wake(): void } | null;
  /**
   * Run here (statementWithJob's `runHere`): a slot of this process's own worker for the queue, or null
   * when this process runs none or every slot is taken. The slot's insertion writes the job already
   * taken by this process (claimedInsertion), and the slot runs it once the statement has committed.
   */
  claim: (() => JobSlot | null) | null;
}

/** A reserved slot of this process's worker for one job of the queue (the queue port's pump). */
export interface JobSlot {
  insertion: JobInsert;
  /** The statement committed the job (id, data): run it in the slot, as if this process had fetched it. */
  run(job: { id: string; data: object }): void;
  /** The statement failed: nothing was written, the slot is free again. */
  release(): void;
}

const SCHEMA = "pgboss";

/** The payload parameter: one job, as pg-boss's send shapes it (manager.#toJobPayload) for these options. */
export function jobPayload(name: string, data: object, options: JobInsertOptions = {}): string {
  return JSON.stringify([jobOf(name, data, options)]);
}

/** One job as pg-boss's insert reads it (jobPayload's one element), for a statement that lists its jobs itself. */
export function jobOf(name: string, data: object, options: JobInsertOptions = {}) {
  return {
    id: null,
    name,
    data,
    priority: 0,
    singletonKey: options.singletonKey ?? null,
    singletonOffset: 0,
    groupId: options.group ?? null,
    groupTier: null,
    deadLetter: null,
  };
}

/**
 * `wake`: the queue's coalesced wake-up for this queue (wake.ts); null leaves the NOTIFY in every
 * statement. `reserve`: a slot of this process's worker for the queue (the queue port's pump), for
 * statements that run their job here.
 */
export function jobInsertFor(
  queue: QueueShape,
  wake: (() => void) | null = null,
  reserve: ((insertion: JobInsert) => JobSlot | null) | null = null,
): JobInsert {
  const text = insertJobs(SCHEMA, { table: queue.table, name: queue.name, returnId: true, notify: false });
  // notify: false gives the bare INSERT … RETURNING id; the NOTIFY gate needs start_after too.
  const insert = text.replace(/RETURNING id\s*$/, "RETURNING id, start_after");
  const [before, after, ...rest] = insert.split("$1::text::json");
  if (before === undefined || after === undefined || rest.length > 0 || insert === text) {
    throw new Error("pg-boss: insertJobs no longer has the shape job-insert.ts composes (pg-boss upgraded?)");
  }
  const channel = notifyChannelSql(SCHEMA);
  const cteOf = (head: string) => (name: string, payload: SQL) => sql`, ${sql.identifier(name)} as (${sql.raw(head)}${payload}::text::json${sql.raw(after)})`;
  const jobCte = cteOf(before);
  const claimedInsertion: JobInsert = { ctes: cteOf(claimedHead(before)), notifiedColumn: () => sql`0`, silent: null, claim: null };
  const claim = reserve ? () => reserve(claimedInsertion) : null;
  const quiet: JobInsert = { ctes: jobCte, notifiedColumn: () => sql`0`, silent: null, claim };
  if (!queue.notify) return quiet;
  return {
    ctes(name, payload) {
      return sql`${jobCte(name, payload)}, ${sql.identifier(`${name}_notified`)} as (select pg_notify(${sql.raw(channel)}, ${sql.raw(`'${queue.name}'`)}) from ${sql.identifier(name)} where start_after <= ${sql.raw(SCHEMA)}.job_now() limit 1)`;
    },
    notifiedColumn(name) {
      return sql`(select count(*) from ${sql.identifier(`${name}_notified`)})::int`;
    },
    silent: wake ? { insertion: quiet, wake } : null,
    claim,
  };
}

/**
 * pg-boss's insert, writing the job as its fetch would leave it for this process: active, started now
 * (retry_count 0, so the completion's fence is the id's attempt 0). Should the process die before it
 * settles, pg-boss's supervisor fails it back for a retry once expire_seconds have passed, as it does
 * a fetched job's; and no NOTIFY, since no other worker is to take it.
 */
function claimedHead(head: string): string {
  const columns = "pending_dependencies\n    )";
  const values = 'COALESCE("pendingDependencies", 0) as pending_dependencies\n';
  const [columnsBefore, columnsAfter, ...moreColumns] = head.split(columns);
  if (columnsBefore === undefined || columnsAfter === undefined || moreColumns.length > 0 || columnsAfter.split(values).length !== 2) {
    throw new Error("pg-boss: insertJobs no longer has the column list job-insert.ts claims jobs through (pg-boss upgraded?)");
  }
  const now = `${SCHEMA}.job_now()`;
  return (
    `${columnsBefore}pending_dependencies, state, started_on, heartbeat_on\n    )` +
    columnsAfter.replace(
      values,
      `COALESCE("pendingDependencies", 0) as pending_dependencies, 'active'::${SCHEMA}.job_state as state, ${now} as started_on, ${now} as heartbeat_on\n`,
    )
  );
}

/**
 * A statement that carries a job (its SQL built once per queue shape and database dialect, prepared
 * under `name`): `build` writes the caller's CTEs and `insertion.ctes(...)`; the result runs it. On its
 * own (not in a transaction) it runs without the NOTIFY and wakes the workers once it has committed.
 */
export function statementWithJob(name: string, build: (insertion: JobInsert, db: Db) => SQL, options: { runHere?: boolean } = {}) {
  const built = new WeakMap<JobInsert, (db: Db, values: Record<string, unknown>) => Promise<unknown[]>>();
  const statementFor = (insertion: JobInsert, prepareAs: string) => {
    let statement = built.get(insertion);
    if (!statement) built.set(insertion, (statement = builtOnceSql(prepareAs, (on) => build(insertion, on))));
    return statement;
  };
  return async (db: Db, insertion: JobInsert, values: Record<string, unknown>): Promise<unknown[]> => {
    const slot = options.runHere && !isTransaction(db) ? (insertion.claim?.() ?? null) : null;
    if (slot) return runHere(slot, statementFor(slot.insertion, `${name}_run_here`), db, values);
    const silent = insertion.silent;
    if (!silent || isTransaction(db)) return statementFor(insertion, name)(db, values);
    const rows = await statementFor(silent.insertion, `${name}_then_wake`)(db, values);
    silent.wake();
    return rows;
  };
}

/**
 * The statement writes its job already taken by this process, and the reserved slot runs it once the
 * statement has committed: no NOTIFY, no fetch, no wait for either (README "Performance"). The job's
 * id is chosen here, so the slot knows it without reading the statement's rows. `values.job` is the
 * queue's jobPayload of one job (statementWithJob's callers name that placeholder `job`).
 */
async function runHere(
  slot: JobSlot,
  statement: (db: Db, values: Record<string, unknown>) => Promise<unknown[]>,
  db: Db,
  values: Record<string, unknown>,
): Promise<unknown[]> {
  const id = randomUUID();
  let data: object;
  let rows: unknown[];
  try {
    const [job, ...more] = JSON.parse(String(values.job)) as { id: string | null; data: object }[];
    if (!job || more.length > 0) throw new Error("statementWithJob runHere: the statement's `job` is not one job's payload");
    data = job.data;
    rows = await statement(db, { ...values, job: JSON.stringify([{ ...job, id }]) });
  } catch (error) {
    slot.release();
    throw error;
  }
  slot.run({ id, data });
  return rows;
}
