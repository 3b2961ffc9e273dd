import { and, eq } from "drizzle-orm";
import { functionInvocations, functionVersions } from "@/lib/db/schema";
import type { ProjectRow, SystemCtx } from "@/lib/domain/context";
import { SvcError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { FunctionEventType } from "@/lib/shared/functions";
import type { SandboxRunOutcome } from "@/lib/ports/sandbox/types";
import { fetchBridge } from "./fetch-bridge";
import { kvBridge } from "./kv";
import { secretEnv } from "./secrets";
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

export async function runFunction(ctx: SystemCtx & { project: ProjectRow }, fn: FunctionRow, input: FunctionRunInput): Promise<FunctionRunOutcome> {
  assertRunnable(fn);
  const [version] = await ctx.db
    .select({ id: functionVersions.id, code: functionVersions.code, runtime: functionVersions.runtime })
    .from(functionVersions)
    .where(and(eq(functionVersions.projectId, ctx.project.id), eq(functionVersions.id, fn.activeVersionId)));
  if (!version) throw new SvcError("function_not_deployed", `Function ${fn.slug}'s active version is missing. Deploy it again.`, { function_id: fn.id });

  const invocationId = newId("functionInvocation");
  const startedAt = ctx.ports.clock.now();
  const env = await secretEnv(ctx, fn.id);
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
  await ctx.db.insert(functionInvocations).values({
    id: invocationId,
    projectId: ctx.project.id,
    functionId: fn.id,
    versionId: version.id,
    eventType: input.eventType,
    status: outcome.status,
    cpuMs: Math.round(outcome.cpu_ms),
    subRequests: outcome.sub_requests,
    durationMs: Math.round(outcome.duration_ms),
    error: outcome.error,
    logs: outcome.logs,
    input: input.event ?? null,
    result: outcome.result ?? null,
    startedAt,
    createdAt: startedAt,
  });
  return { ...outcome, invocation_id: invocationId, version_id: version.id };
}
