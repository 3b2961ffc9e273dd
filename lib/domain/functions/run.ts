import { and, eq, sql } from "drizzle-orm";
import { functionSecrets, functionVersions, hostedFunctions } from "@/lib/db/schema";
import { unseal } from "@/lib/crypto/secrets";
import type { ProjectRow, SystemCtx } from "@/lib/domain/context";
import { SvcError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { FunctionEventType } from "@/lib/shared/functions";
import type { SandboxRunOutcome } from "@/lib/ports/sandbox/types";
import { fetchBridge } from "./fetch-bridge";
import { kvBridge } from "./kv";
import { functionAddressed } from "./crud";
import { recordRun } from "./run-record";
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
  sealedSecrets: { name: string; sealed: string }[];
}

/**
 * The project's function by id or slug (404 otherwise) with its active version and secrets, in one
 * round trip: a run is on the invoke path, where every query is latency (README "Performance").
 */
export async function loadRunnable(ctx: SystemCtx & { project: ProjectRow }, idOrSlug: string): Promise<RunnableFunction> {
  const secrets = sql<
    { name: string; sealed: string }[] | null
  >`(select json_agg(json_build_object('name', ${functionSecrets.name}, 'sealed', ${functionSecrets.sealedValue})) from ${functionSecrets} where ${functionSecrets.functionId} = ${hostedFunctions.id})`;
  const [row] = await ctx.db
    .select({ fn: hostedFunctions, versionId: functionVersions.id, code: functionVersions.code, runtime: functionVersions.runtime, secrets })
    .from(hostedFunctions)
    .leftJoin(functionVersions, and(eq(functionVersions.id, hostedFunctions.activeVersionId), eq(functionVersions.projectId, hostedFunctions.projectId)))
    .where(functionAddressed(ctx, idOrSlug))
    .limit(1);
  if (!row) throw notFound("function", idOrSlug);
  const version = row.versionId && row.code !== null && row.runtime !== null ? { id: row.versionId, code: row.code, runtime: row.runtime } : null;
  return { fn: row.fn, version, sealedSecrets: row.secrets ?? [] };
}

export async function runFunction(ctx: SystemCtx & { project: ProjectRow }, runnable: RunnableFunction, input: FunctionRunInput): Promise<FunctionRunOutcome> {
  const { fn, version } = runnable;
  assertRunnable(fn);
  if (!version) throw new SvcError("function_not_deployed", `Function ${fn.slug}'s active version is missing. Deploy it again.`, { function_id: fn.id });

  const invocationId = newId("functionInvocation");
  const startedAt = ctx.ports.clock.now();
  const env = Object.fromEntries(runnable.sealedSecrets.map((secret) => [secret.name, unseal(secret.sealed)]));
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
