import { sql } from "drizzle-orm";
import { isTransaction } from "@/lib/ports/db/transaction";
import { functionInvocations } from "@/lib/db/schema";
import type { ProjectRow, SystemCtx } from "@/lib/domain/context";
import { isDatabaseUnavailable } from "@/lib/ports/db/postgres-guard";
import { builtOnce, columnPlaceholders } from "@/lib/ports/db/prepared";
import type { Db } from "@/lib/ports/db/types";
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

type InvocationRow = Required<Omit<typeof functionInvocations.$inferInsert, "resultBytes">>;

/** Every column a run's row sets (result_bytes stays NULL, as before). */
const INVOCATION_COLUMNS = [
  "id",
  "projectId",
  "functionId",
  "versionId",
  "eventType",
  "status",
  "cpuMs",
  "subRequests",
  "durationMs",
  "error",
  "logs",
  "input",
  "result",
  "startedAt",
  "createdAt",
] as const satisfies readonly (keyof InvocationRow)[];

/**
 * The row's insert, built once (building it was a tenth of an invoke's own CPU in the web process).
 * `asyncCommit`: its commit does not wait for the WAL to reach the disk (synchronous_commit off for
 * this one statement's transaction, docs/api-decisions.md "Hosted functions": invocation log). The
 * row is visible to every reader once the statement returns, as any commit; only a crash of the
 * database server in the next fraction of a second could lose it. That wait (an fdatasync) was most of
 * an invoke's overhead over GET /limits. Inside a caller's transaction the plain statement runs: the
 * setting would hold for the whole transaction, whose other writes are not this log's.
 */
function invocationInsert(name: string, asyncCommit: boolean) {
  return builtOnce<{ id: string }>(name, (db) => {
    const insert = db.insert(functionInvocations).values(columnPlaceholders(functionInvocations, INVOCATION_COLUMNS) as unknown as InvocationRow);
    return asyncCommit
      ? insert.returning({ id: functionInvocations.id, commit: sql<string>`set_config('synchronous_commit', 'off', true)` })
      : insert.returning({ id: functionInvocations.id });
  });
}

const insertAsyncCommit = invocationInsert("function_invocation_insert_async_commit", true);
const insertInTransaction = invocationInsert("function_invocation_insert", false);

async function insertRow(db: Db, row: InvocationRow): Promise<void> {
  const values: Record<string, unknown> = {};
  for (const column of INVOCATION_COLUMNS) values[column] = row[column];
  await (isTransaction(db) ? insertInTransaction : insertAsyncCommit)(db, values);
}

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
    await insertRow(ctx.db, { ...row, status: stored.status, error: stored.error, logs: stored.logs, result: stored.result ?? null });
    return stored;
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    console.error(`[functions] run ${record.invocationId} of ${record.functionId}: its result could not be stored`, error);
    const failed = invalidResult(stored, "the database refused it");
    await insertRow(ctx.db, { ...row, status: failed.status, error: failed.error, logs: failed.logs, result: null });
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
