import { and, eq } from "drizzle-orm";
import { flowDispatches, flowSubmissions } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { getFlowRow } from "./crud";
import { serializeDispatch, serializeSubmission } from "./serialize";

/** GET /flows/{id}/dispatches, newest first (another project's flow id is a 404). */
export async function listDispatches(ctx: Ctx, flowId: string, params: PageParams & { status?: "SENT" | "COMPLETED" | "EXPIRED" | undefined }) {
  await getFlowRow(ctx, flowId);
  const scope = and(eq(flowDispatches.projectId, ctx.project.id), eq(flowDispatches.flowId, flowId));
  const page = await paginate(ctx.db, flowDispatches, scope, params, params.status ? eq(flowDispatches.status, params.status) : undefined);
  return { object: "list" as const, data: page.data.map(serializeDispatch), has_more: page.has_more };
}

/** GET /flows/{id}/submissions, newest first. */
export async function listSubmissions(
  ctx: Ctx,
  flowId: string,
  params: PageParams & { status?: "RECEIVED" | "VALIDATED" | "REJECTED" | "FORWARDED" | undefined },
) {
  await getFlowRow(ctx, flowId);
  const scope = and(eq(flowSubmissions.projectId, ctx.project.id), eq(flowSubmissions.flowId, flowId));
  const page = await paginate(ctx.db, flowSubmissions, scope, params, params.status ? eq(flowSubmissions.status, params.status) : undefined);
  return { object: "list" as const, data: page.data.map(serializeSubmission), has_more: page.has_more };
}
