import { isTransaction } from "@/lib/ports/db/transaction";
import { LRUCache } from "lru-cache";
import type { Db } from "@/lib/ports/db/types";
import type { FunctionRow } from "./serialize";

/**
 * What a process loaded to run a function (the row, its active version's id and runtime, its sealed
 * secrets), kept with the project's functions revision it was read with (projects.functions_revision,
 * read in the same statement). Every change to a function, its active version or its secrets moves
 * that revision in its own transaction (lib/domain/projects/functions-revision.ts), and each request
 * reads the project row afresh with its API key (a job with its project): while the request's revision
 * is the entry's, nothing the entry holds has changed, and the load's round trip is skipped. A change
 * made through another process counts at the first request that reads the new revision.
 *
 * Keyed by database handle (each runtime its own), then by project and the id or slug the caller used:
 * one project's entry never answers for another's. Not used inside a caller's transaction (it may have
 * changed the function without the revision being committed yet). The code itself stays in run.ts's
 * code cache, bounded by size; this one is bounded by count, least recently used first out.
 */

export interface LoadedRunnable {
  fn: Readonly<FunctionRow>;
  versionId: string | null;
  runtime: FunctionRow["runtime"] | null;
  sealedSecrets: readonly { name: string; sealed: string }[];
}

const MAX_ENTRIES = 5_000;

interface Entry {
  revision: number;
  loaded: LoadedRunnable;
}

const perDb = new WeakMap<Db, LRUCache<string, Entry>>();

function keyOf(projectId: string, idOrSlug: string): string {
  return `${projectId}\u0000${idOrSlug}`;
}

/** Whether runs through this handle may use the cache: not inside a caller's transaction. */
export function cacheable(db: Db): boolean {
  return !isTransaction(db);
}

/** The entry loaded under `revision`, or undefined (none, or loaded under another revision). */
export function cachedRunnable(db: Db, projectId: string, idOrSlug: string, revision: number): LoadedRunnable | undefined {
  const entries = perDb.get(db);
  const key = keyOf(projectId, idOrSlug);
  const entry = entries?.get(key);
  if (!entry) return undefined;
  if (entry.revision === revision) return entry.loaded;
  entries!.delete(key);
  return undefined;
}

export function keepRunnable(db: Db, projectId: string, idOrSlug: string, revision: number, loaded: LoadedRunnable): void {
  let entries = perDb.get(db);
  if (!entries) perDb.set(db, (entries = new LRUCache({ max: MAX_ENTRIES })));
  entries.set(keyOf(projectId, idOrSlug), {
    revision,
    loaded: Object.freeze({ ...loaded, fn: Object.freeze(loaded.fn), sealedSecrets: Object.freeze(loaded.sealedSecrets) }),
  });
}
