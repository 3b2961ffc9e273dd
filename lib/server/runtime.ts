import path from "node:path";
import { env } from "@/lib/config";
import { openDatabase } from "@/lib/ports/db/open";
import type { DatabaseHandle } from "@/lib/ports/db/types";
import { systemClock, type Clock } from "@/lib/ports/clock";
import { createLimiter, type Limiter } from "@/lib/ports/limiter";
import { connectRedis } from "@/lib/ports/limiter/redis";
import { createJobQueue, type JobQueue } from "@/lib/ports/queue";
import { createProviderPort, defaultGraphUrl } from "@/lib/ports/provider";
import { createStorage, type ObjectStorage } from "@/lib/ports/storage";
import type { ProviderPort } from "@/lib/ports/provider/types";
import { bootstrapDemo, ensureReferenceData } from "@/lib/domain/organizations";
import { ensureAdminOperator } from "@/lib/domain/members/operators";
import { registerJobs, scheduleMaintenance } from "@/lib/jobs";

/**
 * The composition root: which adapter serves each port, chosen by environment variables alone.
 * One per process (a globalThis singleton survives dev-server module reloads); tests install their own.
 */
export interface Runtime {
  database: DatabaseHandle;
  clock: Clock;
  limiter: Limiter;
  queue: JobQueue;
  provider: ProviderPort;
  storage: ObjectStorage;
  /** The provider Graph API base (real or the simulator): media lookups go there too. */
  graphUrl: string;
  close(): Promise<void>;
}

const holder = globalThis as typeof globalThis & { __svcRuntime?: Promise<Runtime> };

export function getRuntime(): Promise<Runtime> {
  holder.__svcRuntime ??= startRuntime().catch((error) => {
    holder.__svcRuntime = undefined;
    throw error;
  });
  return holder.__svcRuntime;
}

/** Tests and tools install a runtime built on their own database and clock. */
export function installRuntime(runtime: Runtime | null): void {
  holder.__svcRuntime = runtime ? Promise.resolve(runtime) : undefined;
}

export interface RuntimeOptions {
  clock?: Clock;
  redisUrl?: string | null;
  /** Provider Graph API base; default PROVIDER_GRAPH_URL or the built-in simulator. */
  graphUrl?: string;
  /** Media storage; default chosen by env (S3_BUCKET or the local data folder). */
  storage?: ObjectStorage;
}

export async function buildRuntime(database: DatabaseHandle, options: RuntimeOptions = {}): Promise<Runtime> {
  const redis = options.redisUrl ? connectRedis(options.redisUrl) : null;
  const limiter = createLimiter({ db: database.db, redis });
  const queue = await createJobQueue(database);
  const clock = options.clock ?? systemClock;
  const graphUrl = options.graphUrl ?? defaultGraphUrl();
  const provider = createProviderPort({ graphUrl, now: () => clock.now() });
  const storage = options.storage ?? createStorage();
  registerJobs({ db: database.db, queue, provider, clock, storage, limiter, graphUrl, publicUrl: env().publicUrl });
  await queue.prepare();
  return {
    database,
    clock,
    limiter,
    queue,
    provider,
    storage,
    graphUrl,
    async close() {
      await queue.stop();
      await limiter.close();
      redis?.disconnect();
      await database.close();
    },
  };
}

async function startRuntime(): Promise<Runtime> {
  const config = env();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: path.join(config.dataDir, "pglite") });
  await ensureReferenceData(database.db);
  // Production bootstraps only with an explicit key; a generated one could never be shown there.
  const bootstrap = config.bootstrapKey || !config.production ? await bootstrapDemo(database.db, config.bootstrapKey) : null;
  if (bootstrap?.generatedKey && !config.production) {
    // Local convenience only: a fresh `npm run dev` prints a working key once, like `keys create` does.
    console.log(`\n  svc: created a demo project ${bootstrap.projectId}.\n  Secret API key (shown once): ${bootstrap.generatedKey}\n`);
  }
  if (config.adminEmail && config.adminPassword) {
    const created = await ensureAdminOperator(database.db, config.adminEmail, config.adminPassword);
    if (created) console.log(`  svc: created the dashboard owner ${created.email}.`);
  }
  const runtime = await buildRuntime(database, { redisUrl: config.redisUrl });
  if (process.env.SVC_WORKER !== "off") {
    await runtime.queue.startWorkers({ pollingIntervalSeconds: 0.5 });
    await scheduleMaintenance(runtime.queue);
  }
  return runtime;
}
