import path from "node:path";
import * as schema from "@/lib/db/schema";
import type { Db, DatabaseHandle } from "./types";
import { acquireDataDirLock } from "./pglite-lock";

const MIGRATIONS = path.join(process.cwd(), "drizzle");
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
  const client = postgres(url, { max: options.max ?? 10, onnotice: () => {} });
  const db = drizzle(client, { schema, casing: "snake_case" }) as unknown as Db;
  return { db, kind: "postgres", close: () => client.end({ timeout: 5 }) };
}

async function openPglite(options: OpenOptions): Promise<DatabaseHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const dataDir = options.dataDir ?? path.resolve(".data/pglite");
  const inMemory = dataDir.startsWith("memory://");
  const release = inMemory ? () => {} : acquireDataDirLock(path.dirname(dataDir));
  try {
    const client = await PGlite.create(inMemory ? undefined : dataDir, options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
    const db = drizzle(client, { schema, casing: "snake_case" });
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
