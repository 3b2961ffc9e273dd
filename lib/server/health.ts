import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/ports/db/types";
import { executeRows } from "@/lib/ports/db/bulk";
import { isDraining } from "./shutdown-state";

/**
 * What a load balancer asks a process (README "Running in production", "Health and metrics"):
 * liveness is "the process answers" and touches nothing; readiness is "send me traffic": the database
 * answers a trivial query, the migrations this build ships are applied, Redis answers when it is
 * configured, and the process is not draining (SIGTERM: lib/server/shutdown.ts). Neither goes through
 * the API's route wrapper, so they need no key and count against no project's rate limit or quota.
 */

/** A dependency that has not answered within this is "unreachable": a probe must answer fast. */
export const PROBE_TIMEOUT_MS = 1_000;

type CheckResult = "ok" | "unreachable" | "pending" | "not_configured" | "draining" | "starting";

export interface Readiness {
  ready: boolean;
  checks: { process: CheckResult; database: CheckResult; migrations: CheckResult; redis: CheckResult };
}

/** What readiness probes on a running process: its database and, when configured, its Redis. */
export interface ReadinessTarget {
  db: Db;
  /** Resolves when Redis answers a PING; null when REDIS_URL is unset. */
  pingRedis: (() => Promise<unknown>) | null;
}

/** Rejects after `ms` unless `work` settles first (the timer never holds the process open). */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function probe(work: () => Promise<unknown>): Promise<CheckResult> {
  try {
    await withTimeout(work(), PROBE_TIMEOUT_MS);
    return "ok";
  } catch {
    return "unreachable";
  }
}

/** The newest migration this build ships (drizzle's journal), read once per process. */
let newestShipped: number | null = null;
function newestShippedMigration(): number {
  if (newestShipped === null) {
    const journal = JSON.parse(readFileSync(path.join(process.cwd(), "drizzle", "meta", "_journal.json"), "utf8")) as { entries: { when: number }[] };
    newestShipped = Math.max(...journal.entries.map((entry) => entry.when));
  }
  return newestShipped;
}

/**
 * Whether the database holds this build's newest migration (drizzle records each applied one with its
 * journal time). Once true for a database it stays true, so the answer is cached per database handle:
 * after that, readiness costs one trivial query (and a Redis PING).
 */
const migrated = new WeakSet<Db>();
async function migrationsApplied(db: Db): Promise<boolean> {
  if (migrated.has(db)) return true;
  const [row] = await executeRows<{ newest: string | null }>(db, sql`select max(created_at)::text as newest from drizzle.__drizzle_migrations`);
  const applied = row?.newest !== null && row?.newest !== undefined && Number(row.newest) >= newestShippedMigration();
  if (applied) migrated.add(db);
  return applied;
}

/** Readiness of a running process; `target` null: the process has not finished starting. */
export async function assessReadiness(target: ReadinessTarget | null): Promise<Readiness> {
  const draining = isDraining();
  if (!target) {
    return { ready: false, checks: { process: draining ? "draining" : "starting", database: "pending", migrations: "pending", redis: "pending" } };
  }
  const [database, redis] = await Promise.all([
    probe(() => executeRows(target.db, sql`select 1`)),
    target.pingRedis ? probe(target.pingRedis) : Promise.resolve<CheckResult>("not_configured"),
  ]);
  // A database that answers but cannot say (no migrations table yet) has its migrations pending.
  const migrations: CheckResult =
    database === "ok"
      ? await withTimeout(migrationsApplied(target.db), PROBE_TIMEOUT_MS)
          .then((applied): CheckResult => (applied ? "ok" : "pending"))
          .catch((): CheckResult => "pending")
      : "pending";
  const checks = { process: draining ? ("draining" as const) : ("ok" as const), database, migrations, redis };
  const ready = !draining && database === "ok" && migrations === "ok" && (redis === "ok" || redis === "not_configured");
  return { ready, checks };
}
