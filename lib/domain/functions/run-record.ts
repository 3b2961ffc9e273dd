import { functionInvocations } from "@/lib/db/schema";
import type { ProjectRow, SystemCtx } from "@/lib/domain/context";
import { isDatabaseUnavailable } from "@/lib/ports/db/postgres-guard";
import type { SandboxRunOutcome } from "@/lib/ports/sandbox/types";
import { storableJson } from "@/lib/text/storable-json";
import { toStorableOutput } from "@/lib/text/storable";
import type { FunctionEventType } from "@/lib/shared/functions";

/**
 * The invocation row of one run, written whatever the function's code returned or logged
 * (docs/api-decisions.md "Hosted functions"): result, logs, error and input are made storable first
 * (lone surrogates → U+FFFD, NUL → U+2400); a result that still cannot be stored ends the run
 * `invalid_result: <why>`, and that row is written. Only the database being away is thrown: then
 * nothing was stored and the caller's retry is right. What is returned is what was stored, so the
 * caller (an API answer, an automation's variables) never holds what the row could not.
 */

export interface RunRecord {
  invocationId: string;
  functionId: string;
  versionId: string;
  eventType: FunctionEventType;
  event: unknown;
  startedAt: Date;
}

const INVALID_RESULT = "invalid_result";

export async function recordRun(ctx: SystemCtx & { project: ProjectRow }, record: RunRecord, outcome: SandboxRunOutcome): Promise<SandboxRunOutcome> {
  const stored = storableOutcome(outcome);
  const input = storableJson(record.event ?? null);
  const row = {
    id: record.invocationId,
    projectId: ctx.project.id,
    functionId: record.functionId,
    versionId: record.versionId,
    eventType: record.eventType,
    cpuMs: Math.round(stored.cpu_ms),
    subRequests: stored.sub_requests,
    durationMs: Math.round(stored.duration_ms),
    input: input.ok ? input.value : null,
    startedAt: record.startedAt,
    createdAt: record.startedAt,
  };
  try {
    await ctx.db.insert(functionInvocations).values({ ...row, status: stored.status, error: stored.error, logs: stored.logs, result: stored.result ?? null });
    return stored;
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    console.error(`[functions] run ${record.invocationId} of ${record.functionId}: its result could not be stored`, error);
    const failed = invalidResult(stored, "the database refused it");
    await ctx.db.insert(functionInvocations).values({ ...row, status: failed.status, error: failed.error, logs: failed.logs, result: null });
    return failed;
  }
}

/** The outcome with every string storable; a result too deep to store ends the run invalid_result. */
function storableOutcome(outcome: SandboxRunOutcome): SandboxRunOutcome {
  const logs = outcome.logs.map((line) => ({ ...line, message: toStorableOutput(String(line.message)) }));
  const error = outcome.error === null ? null : toStorableOutput(outcome.error);
  const result = storableJson(outcome.result ?? null);
  const stored = { ...outcome, logs, error };
  return result.ok ? { ...stored, result: result.value } : invalidResult(stored, result.reason);
}

/** The run ended `error` because what the function returned cannot be kept; its logs and measurements stay. */
function invalidResult(outcome: SandboxRunOutcome, why: string): SandboxRunOutcome {
  return { ...outcome, status: "error", result: null, error: `${INVALID_RESULT}: the function's result cannot be stored: ${why}` };
}
