import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { PgBoss, fromDrizzle, fromPglite, type Job } from "pg-boss";
import type { Sql } from "postgres";
import type { DatabaseHandle, Db, Tx } from "@/lib/ports/db/types";
import { executeRows } from "@/lib/ports/db/bulk";
import { listenOnDatabase } from "@/lib/ports/db/listen";
import { QueuePump } from "./pump";
import { jobFailureMessage } from "./failure";
import { redactJobs, type JobMentions } from "./redact";
import { giveBackJobs, readQueueStats } from "./stats";
import { jobInsertFor, type JobInsert, type JobSlot, type QueueShape } from "./job-insert";
import { createWaker } from "./wake";
import type { QueueReading } from "@/lib/ports/metrics";

export type { JobMentions } from "./redact";

/**
 * Durable jobs in the application's own database, through pg-boss (retries, backoff, expiry of
 * stuck jobs, many workers without double work via SKIP LOCKED). On PGlite it runs through its
 * built-in adapter, so the embedded default and Postgres share one code path.
 */
export interface QueueOptions {
  /** Jobs of this queue running at once in one process (default 10). */
  localConcurrency?: number;
  /** At most this many jobs of one group (see SendOptions.group) run at once across all workers. */
  groupConcurrency?: number;
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
  retryDelayMax?: number;
  expireInSeconds?: number;
}

interface SendOptions {
  /** Enqueue inside this transaction: the job exists if and only if the transaction commits. */
  tx?: Tx | Db;
  startAfter?: Date | number;
  singletonKey?: string;
  /** Jobs of one group (a project) share a concurrency cap, so one slow tenant cannot hold every worker. */
  group?: string;
}

type JobHandler<T> = (data: T, job: { id: string; retryCount: number; retryLimit: number }) => Promise<void>;

/**
 * Job name → the payload its send takes. The port knows no job: the application's catalog
 * (lib/jobs/catalog.ts, types only) is given where the queue is built, so a wrong name or payload is
 * a compile error at the send instead of a failed run after the sender's transaction committed.
 * Without one (a test's own jobs) any name and object go.
 */
export type JobCatalogShape = Record<string, object>;

export interface JobQueue<C extends JobCatalogShape> {
  define<T extends object>(name: string, options: QueueOptions, handler: JobHandler<T>): void;
  /** Creates every defined queue. Call once after the definitions, before any send. */
  prepare(): Promise<void>;
  send<N extends keyof C & string>(name: N, data: C[N], options?: SendOptions): Promise<string | null>;
  /**
   * The queue's job insert as CTEs of the caller's own statement (job-insert.ts): a hot write and its
   * job in one round trip. The queue must be prepared; the payload is jobPayload(name, data, options).
   */
  insertion<N extends keyof C & string>(name: N): JobInsert;
  /**
   * For recurring work: enqueues unless a job with this singletonKey is already waiting or running
   * (other than `exceptJobId`, the running job that schedules its successor). pg-boss's singletonKey
   * alone does not dedupe on a standard queue, so every start added another chain. The look and the
   * send hold a transaction-scoped advisory lock on the key, so processes starting at the same instant
   * leave one chain, and each recurring job runs once per period however many workers run.
   */
  sendOnce<N extends keyof C & string>(
    name: N,
    data: C[N],
    options: { singletonKey: string; startAfter?: number; exceptJobId?: string },
  ): Promise<string | null>;
  /** Runs every defined queue in this process until stop(): up to localConcurrency jobs each, woken by NOTIFY, polled while idle. */
  startWorkers(options?: { pollingIntervalSeconds?: number }): Promise<void>;
  /** pg-boss's maintenance pass now (it also runs on its own every minute): expired jobs go back to the queue. */
  maintain(): Promise<void>;
  /**
   * Erasure: job rows that mention any of `mentions` lose their outputs, finished ones their data too
   * (redact.ts). In the caller's transaction, so the erasure commits whole. Returns the rows changed.
   */
  redact(mentions: JobMentions, options: { tx: Tx | Db }): Promise<number>;
  /** Tests and tools: run every job that is due now, until none is left (bounded). Returns how many ran. */
  drain(options?: { maxJobs?: number }): Promise<number>;
  /** Depth and age per queue, for the metrics scrape (stats.ts). */
  stats(): Promise<QueueReading[]>;
  /**
   * Stops fetching and lets the jobs in flight finish for up to `graceMs` (default 5 s); any still
   * running then go back to the queue at once (stats.ts giveBackJobs) rather than wait for their expiry.
   * Sends still work afterwards (a draining web process's requests in flight enqueue their jobs).
   */
  stopWorkers(options?: { graceMs?: number }): Promise<{ givenBack: number }>;
  /** stopWorkers, then pg-boss itself: nothing is sent after it. */
  stop(options?: { graceMs?: number }): Promise<{ givenBack: number }>;
}

interface Definition {
  options: QueueOptions;
  handler: JobHandler<object>;
}

// eslint-disable-next-line max-lines-per-function -- one object of methods over shared state (definitions, queues, pumps, listener): its length is JobQueue's; what stands alone is in the helpers below
export async function createJobQueue<C extends JobCatalogShape = JobCatalogShape>(database: DatabaseHandle): Promise<JobQueue<C>> {
  const boss = await startBoss(database);
  const definitions = new Map<string, Definition>();
  const created = new Set<string>();
  /** What insertion() composes from, per prepared queue: its table and whether it notifies. */
  const shapes = new Map<string, QueueShape>();
  const inserts = new Map<string, JobInsert>();
  const pumps = new Map<string, QueuePump>();
  let listener: { close(): Promise<void> } | null = null;
  // The NOTIFY that job inserts outside a transaction leave out (job-insert.ts), one for many (wake.ts).
  const channel = notifyChannel();
  const waker = createWaker((name) => database.db.execute(sql`select pg_notify(${channel}, ${name})`));

  async function ensureQueue(name: string) {
    if (created.has(name)) return;
    const definition = definitions.get(name);
    const { localConcurrency: _local, groupConcurrency: _group, ...queueOptions } = definition?.options ?? {};
    // notify: a new job wakes the workers at once (LISTEN/NOTIFY) instead of waiting for the next poll.
    await boss.createQueue(name, { ...queueOptions, notify: true });
    // createQueue evicts pg-boss's cached queue entry, and a later send would look it up on pg-boss's
    // own connection: inside a caller's transaction on PGlite (one connection) that waits forever.
    // Looking up any job id through the queue refills the cache now.
    await boss.getJobById(name, "00000000-0000-0000-0000-000000000000");
    const queue = await boss.getQueue(name);
    if (queue) shapes.set(name, shapeOf(queue));
    created.add(name);
  }

  /**
   * A slot of this process's pump for `name` (a worker process's), for a job its statement writes
   * already taken. Not on a queue with a group cap: only a fetch counts a group's jobs against it.
   */
  function slotOf(name: string, insertion: JobInsert): JobSlot | null {
    if (definitions.get(name)?.options.groupConcurrency !== undefined) return null;
    const pump = pumps.get(name);
    if (!pump?.reserve()) return null;
    const retryLimit = shapes.get(name)?.retryLimit ?? 0;
    return {
      insertion,
      run: ({ id, data }) => pump.runReserved({ id, name, data, retryCount: 0, retryLimit } as unknown as Job<object>),
      release: () => pump.release(),
    };
  }

  async function runOne(name: string, job: Job<object>): Promise<void> {
    const definition = definitions.get(name);
    if (!definition) throw new Error(`No handler for job '${name}'`);
    const meta = job as unknown as { retryCount?: number; retryLimit?: number };
    await definition.handler(job.data, { id: job.id, retryCount: meta.retryCount ?? 0, retryLimit: meta.retryLimit ?? 0 });
  }

  const queue: JobQueue<C> = {
    define(name, options, handler) {
      definitions.set(name, { options, handler: handler as JobHandler<object> });
    },
    async prepare() {
      // A queue that exists is left as it is (createQueue would not change it either) and is already
      // in pg-boss's cache, filled when it started: every process after the first starts without
      // taking the create lock thirty-odd times.
      const existing = new Map((await boss.getQueues()).map((q) => [q.name, q]));
      for (const name of definitions.keys()) {
        const queue = existing.get(name);
        if (!queue) await ensureQueue(name);
        else {
          shapes.set(name, shapeOf(queue));
          created.add(name);
        }
      }
    },
    async send(name, data, options = {}) {
      // Inside a transaction a lazy createQueue would wait for the connection the transaction holds
      // (PGlite has exactly one): queues must exist before.
      if (!created.has(name)) {
        if (options.tx) throw new Error(`Queue '${name}' was not prepared before a transactional send`);
        await ensureQueue(name);
      }
      return boss.send(name, data, {
        ...(options.tx ? { db: fromDrizzle(options.tx as unknown as Parameters<typeof fromDrizzle>[0], sql) } : {}),
        ...(options.startAfter !== undefined
          ? { startAfter: options.startAfter instanceof Date ? options.startAfter : new Date(Date.now() + options.startAfter) }
          : {}),
        ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
        ...(options.group ? { group: { id: options.group } } : {}),
      } as Parameters<typeof boss.send>[2]);
    },
    insertion(name) {
      let insert = inserts.get(name);
      if (!insert) {
        const shape = shapes.get(name);
        if (!shape) throw new Error(`Queue '${name}' was not prepared before a job insert in a statement`);
        inserts.set(
          name,
          (insert = jobInsertFor(
            shape,
            () => waker.wake(name),
            (claimed) => slotOf(name, claimed),
          )),
        );
      }
      return insert;
    },
    async sendOnce(name, data, options) {
      await ensureQueue(name);
      const except = options.exceptJobId ? sql`and id::text <> ${options.exceptJobId}` : sql``;
      return database.db.transaction(async (tx) => {
        // The look and the send as one step across processes: two workers starting at the same instant
        // (a deploy) would otherwise both find no live job and start two chains of the same work.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`svc.sendOnce:${options.singletonKey}`}))`);
        const live = await executeRows<{ id: string }>(
          tx as unknown as Db,
          sql`select id from pgboss.job where name = ${name} and singleton_key = ${options.singletonKey} and state in ('created', 'retry', 'active') ${except} limit 1`,
        );
        if (live.length > 0) return null;
        return queue.send(name, data, {
          tx,
          singletonKey: options.singletonKey,
          ...(options.startAfter !== undefined ? { startAfter: options.startAfter } : {}),
        });
      });
    },
    async startWorkers(options = {}) {
      const pollMs = (options.pollingIntervalSeconds ?? 0.5) * 1000;
      for (const [name, definition] of definitions) {
        await ensureQueue(name);
        const pump = pumpFor(boss, name, definition.options, pollMs, (job) => runOne(name, job));
        pumps.set(name, pump);
        pump.start();
      }
      // A job inserted on a notify queue sends pg-boss's NOTIFY (its payload is the queue's name).
      // After a (re)connect of the listener, everything may have been missed: every pump fetches once.
      const unlisten = await listenOnDatabase(
        database,
        notifyChannel(),
        (payload) => pumps.get(payload)?.wake(),
        () => pumps.forEach((p) => p.wake()),
      );
      listener = { close: unlisten };
    },
    redact(mentions, options) {
      return redactJobs(options.tx, mentions);
    },
    async maintain() {
      await boss.supervise();
    },
    async drain({ maxJobs = 500 } = {}) {
      let ran = 0;
      for (let pass = 0; pass < maxJobs; pass++) {
        let progressed = false;
        // Only the queues with a job due: a fetch from each of the thirty-odd queues per pass was most
        // of what a drain cost (tests drain after nearly every step).
        const due = await dueQueueNames(database.db);
        for (const name of definitions.keys()) {
          if (!due.has(name)) continue;
          await ensureQueue(name);
          const [job] = await boss.fetch<object>(name, { batchSize: 1, includeMetadata: true });
          if (!job) continue;
          progressed = true;
          ran++;
          try {
            await runOne(name, job);
            await boss.complete(name, job.id);
          } catch (error) {
            console.error(`[queue] ${name} ${job.id} failed:`, error);
            await boss.fail(name, job.id, { message: jobFailureMessage(error) });
          }
        }
        if (!progressed || ran >= maxJobs) break;
      }
      return ran;
    },
    stats() {
      return readQueueStats(database.db);
    },
    async stopWorkers({ graceMs = 5000 } = {}) {
      await listener?.close().catch(() => {});
      listener = null;
      // Jobs in flight get up to graceMs to finish and be recorded; any still running then go back to the queue.
      const leftover = (await Promise.all([...pumps.values()].map((pump) => pump.stop(graceMs)))).flat();
      pumps.clear();
      const givenBack = leftover.length
        ? await giveBackJobs(database.db, leftover).catch((error: unknown) => {
            console.error("[queue] could not give back the jobs still running; they run again after their expiry:", error);
            return 0;
          })
        : 0;
      return { givenBack };
    },
    async stop(options = {}) {
      const stopped = await queue.stopWorkers(options);
      waker.close();
      // The connections are the application's (database.close() ends them), on both databases.
      await boss.stop({ graceful: false, close: false } as Parameters<typeof boss.stop>[0]);
      return stopped;
    },
  };
  return queue;
}

/** What insertion() composes from (job-insert.ts QueueShape), as pg-boss describes the queue. */
function shapeOf(queue: { name: string; table: string; notify?: boolean; retryLimit?: number }): QueueShape {
  return { name: queue.name, table: queue.table, notify: queue.notify ?? false, retryLimit: queue.retryLimit };
}

/** Names of the queues holding a job that pg-boss's fetch would hand out now (its own condition). */
async function dueQueueNames(db: Db): Promise<Set<string>> {
  const rows = await executeRows<{ name: string }>(db, sql`select distinct name from pgboss.job where state < 'active' and start_after <= pgboss.job_now()`);
  return new Set(rows.map((row) => row.name));
}

async function startBoss(database: DatabaseHandle): Promise<PgBoss> {
  const boss =
    database.kind === "pglite"
      ? new PgBoss({
          db: fromPglite((database.db as unknown as { $client: Parameters<typeof fromPglite>[0] }).$client),
          backend: "pglite",
          schedule: false,
          supervise: true,
          useListenNotify: false,
        })
      : // On Postgres it runs on postgres-js, so its fetches, inserts and completions are prepared
        // statements like every other query (through its own `pg` pool each was parsed and planned
        // again: the costliest statements in the bench), on the queue's pool (open.ts QUEUE_POOL),
        // whose sessions keep one generic plan for each.
        new PgBoss({ db: fromPostgresJs(database.queueClient ?? postgresClientOf(database)), schedule: false, supervise: true, useListenNotify: false });
  boss.on("error", (error: unknown) => console.error("[queue]", error));
  await boss.start();
  return boss;
}

/** The worker loop of one queue: up to localConcurrency jobs at once, at most groupConcurrency of one group. */
function pumpFor(boss: PgBoss, name: string, options: QueueOptions, pollMs: number, runOne: (job: Job<object>) => Promise<void>): QueuePump {
  const { localConcurrency = 10, groupConcurrency } = options;
  return new QueuePump(
    {
      fetch: (batchSize) => boss.fetch<object>(name, { batchSize, includeMetadata: true, ...(groupConcurrency ? { groupConcurrency } : {}) }),
      // Fenced to the fetched attempt: a zombie's result cannot settle the attempt that replaced it.
      complete: async (jobs) => void (await boss.complete(name, jobs as never)),
      fail: async (job, message) => void (await boss.fail(name, [job] as never, { message })),
    },
    {
      capacity: localConcurrency,
      grouped: groupConcurrency !== undefined,
      pollMs,
      run: (job) =>
        runOne(job).catch((error: unknown) => {
          console.error(`[queue] ${name} ${job.id} failed:`, error);
          throw error;
        }),
      onError: (error) => console.error(`[queue] ${name}:`, error),
    },
  );
}

/** pg-boss's LISTEN channel for its default schema (plans.notifyChannelSql, which it does not export). */
function notifyChannel(schema = "pgboss"): string {
  return `pgboss_${createHash("sha224").update(schema).digest("hex").slice(0, 24)}`;
}

function postgresClientOf(database: DatabaseHandle): Sql {
  return (database.db as unknown as { $client: Sql }).$client;
}

/**
 * pg-boss's database adapter over postgres-js: parameterised statements are prepared (postgres-js
 * caches them per connection by text); pg-boss's parameterless scripts, which hold their own
 * BEGIN … COMMIT, run whole on one reserved connection with the simple protocol.
 */
const RESERVED_SCRIPT_TIMEOUT_MS = 30_000;

/**
 * A parameterless text that is one plain query (pg-boss writes the queue name and LIMIT of its fetch
 * into the text): prepared too, so the queue pool's sessions keep its plan instead of planning it on
 * every fetch. DDL and multi-statement texts (no `;` allowed) still go unprepared.
 */
function isOneQuery(text: string): boolean {
  return /^\s*(WITH|SELECT|UPDATE|INSERT|DELETE)\b/i.test(text) && !text.includes(";");
}

function fromPostgresJs(client: Sql) {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      if (values.length === 0 && /\bBEGIN\b/i.test(text)) {
        const reserved = await client.reserve();
        let timer: NodeJS.Timeout | undefined;
        try {
          // A reserved connection whose server went away can leave its query unanswered for good
          // (lib/ports/db/postgres-guard.ts): bound the wait so the supervisor's next pass runs.
          const noAnswer = new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(Object.assign(new Error(`pg-boss script got no answer in ${RESERVED_SCRIPT_TIMEOUT_MS} ms`), { code: "CONNECTION_CLOSED" })),
              RESERVED_SCRIPT_TIMEOUT_MS,
            );
          });
          const results = (await Promise.race([reserved.unsafe(text), noAnswer])) as unknown as unknown[];
          // Several statements answer with one result each: pg-boss reads the rows of all of them.
          return { rows: results.every(Array.isArray) ? (results as unknown[][]).flat() : results };
        } finally {
          clearTimeout(timer);
          reserved.release();
        }
      }
      // As node-postgres (pg-boss's own driver) binds them: a plain object is JSON, an array a postgres array.
      const params = values.map((v) =>
        v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date) && !Buffer.isBuffer(v) ? JSON.stringify(v) : v,
      );
      // postgres-js sends a text without parameters by the simple protocol unless told otherwise
      // (`simple`, an option its types leave out).
      const options = params.length > 0 || isOneQuery(text) ? ({ prepare: true, simple: false } as { prepare: boolean }) : { prepare: false };
      return { rows: [...(await client.unsafe(text, params as never[], options))] };
    },
  };
}
