import path from "node:path";
import { env } from "@/lib/config";
import { openDatabase } from "@/lib/ports/db/open";
import type { DatabaseHandle } from "@/lib/ports/db/types";
import { systemClock, type Clock } from "@/lib/ports/clock";
import { createLimiter } from "@/lib/ports/limiter";
import { connectRedis } from "@/lib/ports/limiter/redis";
import { createJobQueue } from "@/lib/ports/queue";
import type { JobCatalog } from "@/lib/jobs/catalog";
import { createProviderPort, defaultGraphUrl } from "@/lib/ports/provider";
import { createStorage, type ObjectStorage } from "@/lib/ports/storage";
import { createSandbox } from "@/lib/ports/sandbox";
import type { SandboxPort } from "@/lib/ports/sandbox/types";
import { bootstrapDemo, ensureReferenceData } from "@/lib/domain/organizations";
import { ensureAdminOperator } from "@/lib/domain/members/operators";
import { SIMULATOR_SANDBOX_ACCESS_TOKEN } from "@/lib/domain/channels/sandbox";
import type { Ports, Services, Settings } from "@/lib/domain/context";
import { registerJobs, scheduleMaintenance } from "@/lib/jobs";
import { installReactions } from "@/lib/domain/reactions";
import { startWatchdogs } from "@/lib/jobs/watchdogs";
import { installDirectDeliveries } from "@/lib/domain/webhooks/direct";
import { whenSandboxLoopReady } from "@/lib/server/dev-warmup";
import { createMetrics } from "@/lib/ports/metrics";
import { createBus } from "@/lib/ports/bus";
import { listenOnDatabase } from "@/lib/ports/db/listen";
import { AUTH_CHANGED_CHANNEL, forgetAuthenticatedKeys } from "@/lib/domain/keys/auth-cache";
import { installInboxLive } from "@/lib/domain/inbox-live";
import { readBroadcastsInProgress } from "@/lib/domain/broadcasts/stats";
import { measuredProvider, measuredSandbox } from "./measured-ports";
import type { ReadinessTarget } from "./health";

/**
 * The composition root: which adapter serves each port, chosen by environment variables alone.
 * One per process (a globalThis singleton survives dev-server module reloads); tests install their own.
 */
export interface Runtime {
  database: DatabaseHandle;
  /** The adapters, as every ctx carries them (lib/domain/context.ts). */
  ports: Ports;
  /** The configuration verbs read, resolved once here. */
  settings: Settings;
  /** What readiness probes (lib/server/health.ts): the database, and Redis when configured. */
  readiness: ReadinessTarget;
  /**
   * Stops fetching jobs; those in flight get `graceMs` (default 5 s), then go back to the queue.
   * Once per runtime (a second call returns the first one's answer); close() calls it too.
   */
  stopWork(options?: { graceMs?: number }): Promise<{ givenBack: number }>;
  /** stopWork, then the sandbox, the bus, the limiter and the database. */
  close(options?: { graceMs?: number }): Promise<void>;
}

const holder = globalThis as typeof globalThis & { __svcRuntime?: Promise<Runtime> };

export function getRuntime(): Promise<Runtime> {
  holder.__svcRuntime ??= startRuntime().catch((error) => {
    holder.__svcRuntime = undefined;
    throw error;
  });
  return holder.__svcRuntime;
}

/** This process's runtime if it was started and is up, else null; never starts one (a shutdown asks). */
export async function startedRuntime(): Promise<Runtime | null> {
  return holder.__svcRuntime ? holder.__svcRuntime.catch(() => null) : null;
}

/** What every ctx carries: the database, the ports and the settings. */
export function servicesOf(runtime: Runtime): Services {
  return { db: runtime.database.db, ports: runtime.ports, settings: runtime.settings };
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
  /** Hosted functions' sandbox; default a worker pool of its own. */
  sandbox?: SandboxPort;
  /** Settings to use instead of the environment's (tests). */
  settings?: Partial<Omit<Settings, "graphUrl">>;
  /** The limiter's Redis key prefix (default "svc"), also the bus's channel prefix on Redis; each test app has its own. */
  limiterKeyPrefix?: string;
  /** Also export the process's own series (CPU, memory, event loop): a real process, not a test app. */
  processMetrics?: boolean;
}

/** Settings from the environment (README "Environment variables"); the Graph API base is chosen with the provider. */
export function settingsFromEnv(): Omit<Settings, "graphUrl"> {
  const config = env();
  return {
    publicUrl: config.publicUrl,
    sandboxParticipantCap: config.sandboxParticipantCap,
    sandboxAccessToken: config.sandboxAccessToken ?? SIMULATOR_SANDBOX_ACCESS_TOKEN,
    allowPrivateNetwork: config.allowPrivateNetwork,
    trustedProxies: config.trustedProxies,
  };
}

export async function buildRuntime(database: DatabaseHandle, options: RuntimeOptions = {}): Promise<Runtime> {
  const redis = options.redisUrl ? connectRedis(options.redisUrl) : null;
  const limiter = createLimiter({ db: database.db, redis, ...(options.limiterKeyPrefix ? { keyPrefix: options.limiterKeyPrefix } : {}) });
  const bus = createBus({ database, redis, redisUrl: options.redisUrl ?? null, ...(options.limiterKeyPrefix ? { keyPrefix: options.limiterKeyPrefix } : {}) });
  const queue = await createJobQueue<JobCatalog>(database);
  const clock = options.clock ?? systemClock;
  const graphUrl = options.graphUrl ?? defaultGraphUrl();
  const metrics = createMetrics({ processMetrics: options.processMetrics ?? false });
  const provider = measuredProvider(createProviderPort({ graphUrl, now: () => clock.now() }), metrics);
  const storage = options.storage ?? createStorage();
  const sandbox = measuredSandbox(options.sandbox ?? createSandbox(), metrics);
  const ports: Ports = { queue, limiter, storage, clock, provider, sandbox, metrics, bus };
  const settings: Settings = { ...settingsFromEnv(), graphUrl, ...options.settings };
  installReactions();
  const uninstallInboxLive = installInboxLive(bus, metrics);
  registerJobs(queue, { db: database.db, ports, settings });
  // Kept API keys are forgotten at every commit that changes a key, project, organization or plan, and whenever the LISTEN (re)starts.
  const unlistenAuth = await listenOnDatabase(database, AUTH_CHANGED_CHANNEL, forgetAuthenticatedKeys, forgetAuthenticatedKeys);
  await queue.prepare();
  // Read at scrape time only (GET /metrics), never per request.
  metrics.setScrapeSources({ queues: () => queue.stats(), broadcasts: () => readBroadcastsInProgress(database.db) });
  let stopping: Promise<{ givenBack: number }> | null = null;
  const stopWork: Runtime["stopWork"] = ({ graceMs } = {}) => (stopping ??= queue.stopWorkers(graceMs === undefined ? {} : { graceMs }));
  return {
    database,
    ports,
    settings,
    readiness: { db: database.db, pingRedis: redis ? () => redis.ping() : null },
    stopWork,
    async close(options) {
      await stopWork(options);
      await unlistenAuth();
      await queue.stop();
      await sandbox.close();
      // The inbox events gathered so far go out before the bus (and the Redis client it publishes on) closes.
      await uninstallInboxLive();
      await bus.close();
      await limiter.close();
      redis?.disconnect();
      await database.close();
    },
  };
}

async function startRuntime(): Promise<Runtime> {
  const config = env();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: path.join(config.dataDir, "pglite"), max: config.databasePoolMax });
  await ensureReferenceData(database.db);
  // Production bootstraps only with an explicit key; a generated one could never be shown there.
  const bootstrap = config.bootstrapKey || !config.production ? await bootstrapDemo(database.db, config.bootstrapKey, systemClock.now()) : null;
  // Local convenience only: a fresh `npm run dev` prints a working key once, like `keys create` does.
  const keyLines =
    bootstrap?.generatedKey && !config.production
      ? `\n  svc: created a demo project ${bootstrap.projectId}.\n  Secret API key (shown once): ${bootstrap.generatedKey}\n`
      : null;
  if (config.adminEmail && config.adminPassword) {
    const created = await ensureAdminOperator(database.db, config.adminEmail, config.adminPassword, systemClock.now());
    if (created) console.log(`  svc: created the dashboard owner ${created.email}.`);
  }
  const runtime = await buildRuntime(database, { redisUrl: config.redisUrl, processMetrics: true });
  if (process.env.SVC_WORKER !== "off") {
    await runtime.ports.queue.startWorkers({ pollingIntervalSeconds: 0.5 });
    await scheduleMaintenance(runtime.ports.queue);
    const watchdogs = startWatchdogs(servicesOf(runtime));
    // This process attempts the deliveries its jobs write (lib/domain/webhooks/direct.ts).
    const uninstallDirect = installDirectDeliveries(servicesOf(runtime));
    const { close, stopWork } = runtime;
    let stoppingWork: ReturnType<Runtime["stopWork"]> | null = null;
    runtime.stopWork = (options) =>
      (stoppingWork ??= (async () => {
        await watchdogs.stop();
        const stopped = await stopWork(options);
        // After the jobs: a job finishing in its grace may still start a direct attempt. Those still
        // running at the deadline go to jobs, as the jobs still running go back to the queue.
        const attempts = await uninstallDirect(options?.graceMs);
        return { givenBack: stopped.givenBack + attempts };
      })());
    runtime.close = async (options) => {
      // The overridden stopWork (stopWork is once per runtime, so close's own call is the same one),
      // then the direct attempts still finishing, before the database they write to closes.
      await runtime.stopWork(options);
      await close(options);
    };
  }
  // Under next dev the key waits for the README sandbox loop's routes to compile (dev-warmup.ts), so
  // the block pasted the moment it shows finds them ready; every dev start warms them.
  whenSandboxLoopReady((note) => {
    if (keyLines) console.log(`${keyLines}${note}`);
  });
  return runtime;
}
