import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import { PgBoss, fromDrizzle, fromPglite, type Job } from "pg-boss";
import type { DatabaseHandle, Db, Tx } from "@/lib/ports/db/types";

/**
 * Durable jobs in the application's own database, through pg-boss (retries, backoff, expiry of
 * stuck jobs, many workers without double work via SKIP LOCKED). On PGlite it runs through its
 * built-in adapter, so the embedded default and Postgres share one code path.
 */
export interface QueueOptions {
  /** Jobs of this queue run in parallel in one process (default 1). */
  localConcurrency?: number;
  /** At most this many jobs of one group (see SendOptions.group) run at once across all workers. */
  groupConcurrency?: number;
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
  retryDelayMax?: number;
  expireInSeconds?: number;
}

export interface SendOptions {
  /** Enqueue inside this transaction: the job exists if and only if the transaction commits. */
  tx?: Tx | Db;
  startAfter?: Date | number;
  singletonKey?: string;
  /** Jobs of one group (a project) share a concurrency cap, so one slow tenant cannot hold every worker. */
  group?: string;
}

export type JobHandler<T> = (data: T, job: { id: string; retryCount: number; retryLimit: number }) => Promise<void>;

export interface JobQueue {
  define<T extends object>(name: string, options: QueueOptions, handler: JobHandler<T>): void;
  /** Creates every defined queue. Call once after the definitions, before any send. */
  prepare(): Promise<void>;
  send<T extends object>(name: string, data: T, options?: SendOptions): Promise<string | null>;
  /** Polls every defined queue in this process until stop(): batches of up to `batchSize` (10), fetched again at once while full. */
  startWorkers(options?: { pollingIntervalSeconds?: number; batchSize?: number }): Promise<void>;
  /** pg-boss's maintenance pass now (it also runs on its own every minute): expired jobs go back to the queue. */
  maintain(): Promise<void>;
  /** Tests and tools: run every job that is due now, until none is left (bounded). Returns how many ran. */
  drain(options?: { maxJobs?: number }): Promise<number>;
  stop(): Promise<void>;
}

const running = new AsyncLocalStorage<JobQueue>();

/** The queue whose job is running right now (work that a job does can enqueue follow-up work on it). */
export function currentJobQueue(): JobQueue | null {
  return running.getStore() ?? null;
}

interface Definition {
  options: QueueOptions;
  handler: JobHandler<object>;
}

export async function createJobQueue(database: DatabaseHandle, databaseUrl: string | null): Promise<JobQueue> {
  const boss =
    database.kind === "pglite"
      ? new PgBoss({ db: fromPglite((database.db as unknown as { $client: Parameters<typeof fromPglite>[0] }).$client), backend: "pglite", schedule: false, supervise: true, useListenNotify: true })
      : new PgBoss({ connectionString: databaseUrl!, max: 4, schedule: false, useListenNotify: true });
  boss.on("error", (error: unknown) => console.error("[queue]", error));
  await boss.start();

  const definitions = new Map<string, Definition>();
  const created = new Set<string>();
  let working = false;

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
    created.add(name);
  }

  async function runOne(name: string, job: Job<object>): Promise<void> {
    const definition = definitions.get(name);
    if (!definition) throw new Error(`No handler for job '${name}'`);
    const meta = job as unknown as { retryCount?: number; retryLimit?: number };
    await running.run(queue, () => definition.handler(job.data, { id: job.id, retryCount: meta.retryCount ?? 0, retryLimit: meta.retryLimit ?? 0 }));
  }

  const queue: JobQueue = {
    define(name, options, handler) {
      definitions.set(name, { options, handler: handler as JobHandler<object> });
    },
    async prepare() {
      for (const name of definitions.keys()) await ensureQueue(name);
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
        ...(options.startAfter !== undefined ? { startAfter: options.startAfter instanceof Date ? options.startAfter : new Date(Date.now() + options.startAfter) } : {}),
        ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
        ...(options.group ? { group: { id: options.group } } : {}),
      } as Parameters<typeof boss.send>[2]);
    },
    async startWorkers(options = {}) {
      working = true;
      for (const name of definitions.keys()) {
        await ensureQueue(name);
        const { localConcurrency, groupConcurrency } = definitions.get(name)!.options;
        const poll = options.pollingIntervalSeconds ?? 0.5;
        const workOptions = {
          pollingIntervalSeconds: poll,
          // With notify queues pg-boss otherwise waits max(30 s, poll) between fetches unless a
          // NOTIFY arrived meanwhile: a backlog would drain at one job per slot per 30 s.
          notifyPollingIntervalSeconds: poll,
          batchSize: options.batchSize ?? 10,
          // A full batch means more is waiting: fetch again at once instead of after the poll.
          burstWhenBatchFull: true,
          // Each job of a batch succeeds or fails (and retries) on its own.
          perJobResults: true,
          // Handlers decide "retry or give up" from retryCount / retryLimit: they need the metadata.
          includeMetadata: true,
          ...(localConcurrency ? { localConcurrency } : {}),
          ...(groupConcurrency ? { groupConcurrency } : {}),
        };
        const handler = async (jobs: Job<object>[]) =>
          Promise.all(
            jobs.map(async (job) => {
              try {
                await runOne(name, job);
                return { id: job.id, status: "completed" as const };
              } catch (error) {
                console.error(`[queue] ${name} ${job.id} failed:`, error);
                return { id: job.id, status: "failed" as const, output: { message: error instanceof Error ? error.message : String(error) } };
              }
            }),
          );
        // pg-boss types perJobResults through an overload our generic wrapper cannot name.
        await boss.work<object>(name, workOptions as never, handler as never);
      }
    },
    async maintain() {
      await boss.supervise();
    },
    async drain({ maxJobs = 500 } = {}) {
      let ran = 0;
      for (let pass = 0; pass < maxJobs; pass++) {
        let progressed = false;
        for (const name of definitions.keys()) {
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
            await boss.fail(name, job.id, { message: error instanceof Error ? error.message : String(error) });
          }
        }
        if (!progressed || ran >= maxJobs) break;
      }
      return ran;
    },
    async stop() {
      if (working) working = false;
      await boss.stop({ graceful: false, close: database.kind !== "pglite" } as Parameters<typeof boss.stop>[0]);
    },
  };
  return queue;
}
