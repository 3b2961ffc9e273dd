import type { Db } from "@/lib/ports/db/types";
import type { AuthenticatedKey } from "./index";

/**
 * Authenticated keys (the key row with its project, organization and plan) kept for at most
 * AUTH_CACHE_TTL_MS per process (issue 35: every request read them, one round trip and four rows
 * mapped before any work).
 *
 * A change to any of those rows is forgotten everywhere:
 *  - in the writing process at once: the owner modules' writes call forgetAuthenticatedKeys();
 *  - in every process at its commit: triggers NOTIFY `svc_auth_changed` (drizzle/0025), which every
 *    runtime LISTENs for (lib/server/runtime.ts, lib/ports/db/listen.ts), and a (re)started LISTEN
 *    forgets too;
 *  - at worst (a lost notification) within AUTH_CACHE_TTL_MS.
 * docs/api-decisions.md "Authenticated keys are kept for a second".
 *
 * An entry is kept only when no change was announced while it was read (the generation), so a read
 * that raced a revocation cannot store the key as it was. Concurrent misses of one key share one read.
 * Unknown and revoked keys are never kept: they are read every time, as before.
 */
export const AUTH_CACHE_TTL_MS = 1000;
/** drizzle/0025's triggers notify here. */
export const AUTH_CHANGED_CHANNEL = "svc_auth_changed";
const MAX_ENTRIES = 10_000;

interface Entry {
  found: AuthenticatedKey;
  generation: number;
  expiresAt: number;
}

interface Cache {
  entries: Map<string, Entry>;
  reading: Map<string, { generation: number; read: Promise<AuthenticatedKey | null> }>;
}

/** Per database handle: test apps in one process each have their own database and may share key values. */
const caches = new WeakMap<Db, Cache>();
let generation = 0;

/** Every kept key is forgotten (and reads under way will not be kept): a key, project, organization or plan changed. */
export function forgetAuthenticatedKeys(): void {
  generation++;
}

/**
 * The key of this hash from the cache, else from `read` (kept when found and nothing changed meanwhile).
 * `nowMs`: the monotonic clock (ctx.ports.clock.monotonicMs()).
 */
export function cachedAuthenticatedKey(db: Db, hash: string, nowMs: number, read: () => Promise<AuthenticatedKey | null>): Promise<AuthenticatedKey | null> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = { entries: new Map(), reading: new Map() }));
  const entry = cache.entries.get(hash);
  if (entry && entry.generation === generation && entry.expiresAt > nowMs) return Promise.resolve(entry.found);
  const pending = cache.reading.get(hash);
  if (pending && pending.generation === generation) return pending.read;
  return readAndKeep(cache, hash, nowMs + AUTH_CACHE_TTL_MS, read);
}

function readAndKeep(cache: Cache, hash: string, expiresAt: number, read: () => Promise<AuthenticatedKey | null>): Promise<AuthenticatedKey | null> {
  const startedAt = generation;
  const pending = { generation: startedAt, read: read() };
  cache.reading.set(hash, pending);
  const settled = () => {
    if (cache.reading.get(hash) === pending) cache.reading.delete(hash);
  };
  return pending.read.then(
    (found) => {
      settled();
      if (found && generation === startedAt) keep(cache, hash, { found, generation: startedAt, expiresAt });
      return found;
    },
    (error: unknown) => {
      settled();
      throw error;
    },
  );
}

function keep(cache: Cache, hash: string, entry: Entry): void {
  cache.entries.delete(hash);
  // Oldest kept first out: a Map iterates in insertion order, and a key kept again moves to the end.
  if (cache.entries.size >= MAX_ENTRIES) cache.entries.delete(cache.entries.keys().next().value!);
  cache.entries.set(hash, entry);
}
