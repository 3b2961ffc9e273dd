import path from "node:path";
import type { Db, DatabaseHandle } from "./types";
import { acquireDataDirLock } from "./pglite-lock";
import { installPostgresWriteGuard } from "./postgres-guard";

const MIGRATIONS = path.join(process.cwd(), "drizzle");
/** Connecting gives up after this; then the request answers 503 database_unavailable. */
const CONNECT_TIMEOUT_SECONDS = 3;
/** No application statement runs longer (migrations run on their own connection, without it). */
const STATEMENT_TIMEOUT_MS = 8_000;
/** Seconds before the pool's n-th reconnect attempt: 50 ms doubling, at most half a second. */
function reconnectDelaySeconds(attempt: number): number {
  return Math.min(0.05 * 2 ** attempt, 0.5);
}
/**
 * Every drizzle instance's options. No `schema`: drizzle builds a relational query builder for every
 * table of the schema in the constructor of each database object, and every transaction is a new one,
 * so the ingest paid for about fifty objects per message for an API (`db.query.*`) nothing here uses.
 */
export const DRIZZLE_CONFIG = { casing: "snake_case" } as const;
/** Any fixed number: serialises migrations when many web and worker processes start together. */
const MIGRATION_LOCK = 727_001;

export interface OpenOptions {
  databaseUrl?: string | null;
  /** PGlite data folder; "memory://" for an in-memory database. */
  dataDir?: string;
  /** A PGlite dump (from dumpDataDir) to start from, used by tests. */
  loadDataDir?: Blob;
  migrate?: boolean;
  /** postgres-js pool size. */
  max?: number;
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPglite(options);
}

async function openPostgres(url: string, options: OpenOptions): Promise<DatabaseHandle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  if (options.migrate !== false) {
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    // One connection, so the advisory lock and the migration run on the same session.
    const single = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await single`select pg_advisory_lock(${MIGRATION_LOCK})`;
      await migrate(drizzle(single), { migrationsFolder: MIGRATIONS });
      await single`select pg_advisory_unlock(${MIGRATION_LOCK})`;
    } finally {
      await single.end();
    }
  }
  installPostgresWriteGuard();
  const pool = {
    onnotice: () => {},
    // A database that is down must fail fast (503 / a retried job), never hold a request for long.
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    // postgres-js's default reconnect delay grows to 20 s and is shared by the whole pool, so after a
    // one-second restart requests waited up to 25 s (fault suite, scenario 2). Reconnect quickly instead.
    backoff: reconnectDelaySeconds,
  };
  const client = postgres(url, { ...pool, max: options.max ?? 10, connection: { statement_timeout: STATEMENT_TIMEOUT_MS } });
  // Connects on first use: a process that fetches no jobs opens none of it.
  const queueClient = postgres(url, { ...pool, max: QUEUE_POOL.max, connection: { statement_timeout: STATEMENT_TIMEOUT_MS, ...QUEUE_POOL.settings } });
  await preparePostgresJsStatements();
  const db = drizzle(client, DRIZZLE_CONFIG) as unknown as Db;
  // drizzle() sets the client's parsers and serializers (dates as text, json sent as given): pg-boss's
  // statements must bind and read values on the queue's pool as they do on the application's.
  drizzle(queueClient, DRIZZLE_CONFIG);
  const close = async () => void (await Promise.all([client.end({ timeout: 5 }), queueClient.end({ timeout: 5 })]));
  return { db, kind: "postgres", queueClient, close };
}

/**
 * pg-boss's own statements (its fetch, completion and failure; lib/ports/queue) run on a small pool of
 * their own, whose sessions use a prepared statement's generic plan from its first run. Postgres chose a
 * custom plan for each completion (its id list is a parameter), planning it again on every call: as much
 * time as running it (pg_stat_statements, README "Performance"); the fetch, whose text holds its LIMIT, is
 * prepared once per text (lib/ports/queue isOneQuery). The application's statements keep Postgres's own
 * choice (ingest's and the send's are generic already).
 */
const QUEUE_POOL = { max: 4, settings: { plan_cache_mode: "force_generic_plan", application_name: "svc-queue" } } as const;

/**
 * drizzle's postgres-js session sends every query not built with .prepare(name) as an unnamed
 * statement, so Postgres parses and plans it again on every execution, most of the server's time per
 * statement under load (README "Performance", third round). postgres-js itself caches named
 * statements per connection by their text (our texts are parameterised, so the set is bounded).
 * This marks every drizzle query as prepared; it needs a direct connection or session pooling
 * (transaction-mode PgBouncer cannot keep prepared statements). drizzle-orm is pinned, and the
 * prototype method is checked so an upgrade that renames it fails loudly at start.
 */
let statementsPrepared = false;
async function preparePostgresJsStatements(): Promise<void> {
  if (statementsPrepared) return;
  const { PostgresJsSession } = await import("drizzle-orm/postgres-js/session");
  type PrepareQuery = (this: unknown, query: unknown, fields: unknown, name: string | undefined, ...rest: unknown[]) => unknown;
  const proto = PostgresJsSession.prototype as unknown as { prepareQuery: PrepareQuery };
  const original = proto.prepareQuery;
  if (typeof original !== "function") throw new Error("drizzle-orm/postgres-js: PostgresJsSession.prepareQuery not found (drizzle-orm upgraded?)");
  // drizzle decides `prepare = name !== undefined`; a name of "" keeps postgres-js's own naming.
  proto.prepareQuery = function (query, fields, name, ...rest) {
    return original.call(this, query, fields, name ?? "", ...rest);
  };
  statementsPrepared = true;
}

/** The extensions the migrations create (pg_trgm: 0021), loaded into every PGlite, a dump's too. */
export async function pgliteExtensions() {
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  return { pg_trgm };
}

async function openPglite(options: OpenOptions): Promise<DatabaseHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const dataDir = options.dataDir ?? path.resolve(".data/pglite");
  const inMemory = dataDir.startsWith("memory://");
  const release = inMemory ? () => {} : acquireDataDirLock(path.dirname(dataDir));
  try {
    const extensions = await pgliteExtensions();
    const client = await PGlite.create(inMemory ? undefined : dataDir, options.loadDataDir ? { loadDataDir: options.loadDataDir, extensions } : { extensions });
    const db = drizzle(client, DRIZZLE_CONFIG);
    if (options.migrate !== false) {
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      await migrate(db, { migrationsFolder: MIGRATIONS });
    }
    return {
      db: db as unknown as Db,
      kind: "pglite",
      close: async () => {
        await client.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
