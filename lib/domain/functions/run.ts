import { and, eq, or, sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import { functionSecrets, functionVersions, hostedFunctions, projects } from "@/lib/db/schema";
import { unsealCached } from "@/lib/crypto/secrets";
import type { ProjectRow, SystemCtx } from "@/lib/domain/context";
import { SvcError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { preparedPerDb } from "@/lib/ports/db/prepared";
import type { Db } from "@/lib/ports/db/types";
import type { FunctionEventType } from "@/lib/shared/functions";
import type { SandboxRunOutcome } from "@/lib/ports/sandbox/types";
import { fetchBridge } from "./fetch-bridge";
import { kvBridge } from "./kv";
import { recordRun } from "./run-record";
import { cacheable, cachedRunnable, keepRunnable, type LoadedRunnable } from "./runnable-cache";
import type { FunctionRow } from "./serialize";

/**
 * The one way a hosted function runs, whatever calls it (test, invoke, an automation step, an agent
 * or MCP tool): the active version in the sandbox with its secrets as `env`, its KV and the guarded
 * fetch, and an invocation row for every run (decisions.md "Hosted functions": invocation log).
 */

export interface FunctionRunInput {
  eventType: FunctionEventType;
  event: unknown;
}

export interface FunctionRunOutcome extends SandboxRunOutcome {
  invocation_id: string;
  version_id: string;
}

/** 422 function_not_deployed / function_inactive: what every caller checks before a run. */
export function assertRunnable(fn: FunctionRow): asserts fn is FunctionRow & { activeVersionId: string } {
  if (!fn.activeVersionId) {
    throw new SvcError("function_not_deployed", `Function ${fn.slug} has no deployed version. Deploy it first (POST /functions/${fn.id}/deploy).`, {
      function_id: fn.id,
    });
  }
  if (!fn.isActive) {
    throw new SvcError("function_inactive", `Function ${fn.slug} is inactive. Set is_active to true (PATCH /functions/${fn.id}) to run it.`, {
      function_id: fn.id,
    });
  }
}

/** A function with what a run needs: its active version's code and its sealed secrets. */
export interface RunnableFunction {
  fn: FunctionRow;
  version: { id: string; code: string; runtime: FunctionRow["runtime"] } | null;
  sealedSecrets: readonly { name: string; sealed: string }[];
}

const secretsOfFunction = sql<
  { name: string; sealed: string }[] | null
>`(select json_agg(json_build_object('name', ${functionSecrets.name}, 'sealed', ${functionSecrets.sealedValue})) from ${functionSecrets} where ${functionSecrets.functionId} = ${hostedFunctions.id})`;

/**
 * The function with its active version's id and runtime (not its code), its sealed secrets, and the
 * project's functions revision, all from the statement's one snapshot (runnable-cache.ts).
 */
const runnableRow = preparedPerDb((db) =>
  db
    .select({
      fn: hostedFunctions,
      versionId: functionVersions.id,
      runtime: functionVersions.runtime,
      secrets: secretsOfFunction,
      revision: projects.functionsRevision,
    })
    .from(hostedFunctions)
    .innerJoin(projects, eq(projects.id, hostedFunctions.projectId))
    .leftJoin(functionVersions, and(eq(functionVersions.id, hostedFunctions.activeVersionId), eq(functionVersions.projectId, hostedFunctions.projectId)))
    .where(
      and(
        eq(hostedFunctions.projectId, sql.placeholder("projectId")),
        or(eq(hostedFunctions.id, sql.placeholder("idOrSlug")), eq(hostedFunctions.slug, sql.placeholder("idOrSlug"))),
      ),
    )
    .limit(1)
    .prepare("function_runnable"),
);

const versionCode = preparedPerDb((db) =>
  db
    .select({ code: functionVersions.code })
    .from(functionVersions)
    .where(and(eq(functionVersions.projectId, sql.placeholder("projectId")), eq(functionVersions.id, sql.placeholder("versionId"))))
    .prepare("function_version_code"),
);

/**
 * The code of versions this process ran, by version id. A version never changes (deploy makes a new
 * one, rollback points at an old one), so what is kept here cannot go stale: which version runs is read
 * from the database on every run, only its code (up to 400,000 characters) is not fetched again.
 * Bounded by characters, least recently used first out.
 */
const CODE_CACHE_CHARS = 16_000_000;
// A code longer than the whole bound is not kept (the largest allowed is 400,000 characters).
const codeCache = new LRUCache<string, string>({ maxSize: CODE_CACHE_CHARS, sizeCalculation: (code) => Math.max(1, code.length) });

async function codeOf(db: Db, projectId: string, versionId: string): Promise<string | null> {
  const key = `${projectId}:${versionId}`;
  const cached = codeCache.get(key);
  if (cached !== undefined) return cached;
  const [row] = await versionCode(db).execute({ projectId, versionId });
  if (!row) return null;
  codeCache.set(key, row.code);
  return row.code;
}

/**
 * The project's function by id or slug (404 otherwise) with its active version and secrets. A run is
 * on the invoke path, where every query is latency (README "Performance"): while the project's
 * functions revision (read with the request's API key, or the job's project) is the one this process
 * loaded the function under, what it loaded is used again without a round trip (runnable-cache.ts);
 * otherwise one round trip (two the first time this process runs a version: its code). Every change
 * to a function moves the revision in its transaction, so a deploy, rollback, PATCH or secret change
 * is what the next request sees: at once in the process that made it, in every other one at its
 * commit's NOTIFY (the revision comes with the kept key: keys/auth-cache.ts).
 */
export async function loadRunnable(ctx: SystemCtx & { project: ProjectRow }, idOrSlug: string): Promise<RunnableFunction> {
  const projectId = ctx.project.id;
  const useCache = cacheable(ctx.db);
  let loaded = useCache ? cachedRunnable(ctx.db, projectId, idOrSlug, ctx.project.functionsRevision) : undefined;
  if (!loaded) {
    const [row] = await runnableRow(ctx.db).execute({ projectId, idOrSlug });
    if (!row) throw notFound("function", idOrSlug);
    loaded = { fn: row.fn, versionId: row.versionId, runtime: row.runtime, sealedSecrets: row.secrets ?? [] } satisfies LoadedRunnable;
    if (useCache) keepRunnable(ctx.db, projectId, idOrSlug, row.revision, loaded);
  }
  const { versionId, runtime } = loaded;
  const code = versionId && runtime !== null ? await codeOf(ctx.db, projectId, versionId) : null;
  const version = versionId && code !== null && runtime !== null ? { id: versionId, code, runtime } : null;
  return { fn: loaded.fn, version, sealedSecrets: loaded.sealedSecrets };
}

export async function runFunction(ctx: SystemCtx & { project: ProjectRow }, runnable: RunnableFunction, input: FunctionRunInput): Promise<FunctionRunOutcome> {
  const { fn, version } = runnable;
  assertRunnable(fn);
  if (!version) throw new SvcError("function_not_deployed", `Function ${fn.slug}'s active version is missing. Deploy it again.`, { function_id: fn.id });

  const invocationId = newId("functionInvocation");
  const startedAt = ctx.ports.clock.now();
  const env = Object.fromEntries(runnable.sealedSecrets.map((secret) => [secret.name, unsealCached(secret.sealed)]));
  const outcome = await ctx.ports.sandbox.run(
    {
      code: version.code,
      runtime: version.runtime,
      event: input.event,
      env,
      context: { function_id: fn.id, function_slug: fn.slug, invocation_id: invocationId, project_id: ctx.project.id, event_type: input.eventType },
    },
    { fetch: fetchBridge(ctx.settings), kv: kvBridge(ctx, fn.id) },
  );
  const record = { invocationId, functionId: fn.id, versionId: version.id, eventType: input.eventType, event: input.event, startedAt };
  const stored = await recordRun(ctx, record, outcome);
  return { ...stored, invocation_id: invocationId, version_id: version.id };
}
