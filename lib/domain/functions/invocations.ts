import { and, count, eq, gte, inArray, lt, max, sql, type SQL } from "drizzle-orm";
import { functionInvocations, hostedFunctions } from "@/lib/db/schema";
import type { Ctx, SystemCtx } from "@/lib/domain/context";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import type { FunctionEventType } from "@/lib/shared/functions";
import { getFunctionRow } from "./crud";
import { serializeInvocation } from "./serialize";

const INVOCATION_RETENTION_MS = 7 * 24 * 60 * 60_000;
export const FUNCTION_INVOCATIONS_EXPIRE_JOB = "functions.expire-invocations";
const BATCH = 1000;

/** GET /functions/{id}/invocations: every run, newest first, filtered by status and event_type. */
export async function listInvocations(
  ctx: Ctx,
  idOrSlug: string,
  params: PageParams & { status?: "ok" | "error" | undefined; event_type?: FunctionEventType | undefined },
) {
  const fn = await getFunctionRow(ctx, idOrSlug);
  const scope = and(eq(functionInvocations.projectId, ctx.project.id), eq(functionInvocations.functionId, fn.id));
  const filters: SQL[] = [];
  if (params.status) filters.push(eq(functionInvocations.status, params.status));
  if (params.event_type) filters.push(eq(functionInvocations.eventType, params.event_type));
  const page = await paginate(ctx.db, functionInvocations, scope, params, filters.length ? and(...filters) : undefined);
  return { object: "list" as const, data: page.data.map(serializeInvocation), has_more: page.has_more };
}

/** The dashboard list's error rate: runs and failed runs of the last 24 h per function of the project. */
export async function functionStats(ctx: Ctx) {
  const since = new Date(ctx.now.getTime() - 24 * 60 * 60_000);
  const rows = await ctx.db
    .select({
      functionId: hostedFunctions.id,
      total: count(functionInvocations.id),
      errors: sql<number>`count(*) filter (where ${functionInvocations.status} = 'error')`.mapWith(Number),
      last: max(functionInvocations.startedAt),
    })
    .from(hostedFunctions)
    .leftJoin(functionInvocations, and(eq(functionInvocations.functionId, hostedFunctions.id), gte(functionInvocations.startedAt, since)))
    .where(eq(hostedFunctions.projectId, ctx.project.id))
    .groupBy(hostedFunctions.id);
  return {
    object: "list" as const,
    data: rows.map((row) => ({
      function_id: row.functionId,
      invocations_24h: Number(row.total),
      errors_24h: row.total ? row.errors : 0,
      last_invoked_at: row.last ? new Date(row.last).toISOString() : null,
    })),
    has_more: false as const,
  };
}

/** Deletes invocation rows older than 7 days, a batch at a time. */
export async function expireInvocations(ctx: Pick<SystemCtx, "db" | "now">): Promise<number> {
  const cutoff = new Date(ctx.now.getTime() - INVOCATION_RETENTION_MS);
  let total = 0;
  for (;;) {
    const due = ctx.db.select({ id: functionInvocations.id }).from(functionInvocations).where(lt(functionInvocations.startedAt, cutoff)).limit(BATCH);
    const deleted = await ctx.db.delete(functionInvocations).where(inArray(functionInvocations.id, due)).returning({ id: functionInvocations.id });
    total += deleted.length;
    if (deleted.length < BATCH) return total;
  }
}
