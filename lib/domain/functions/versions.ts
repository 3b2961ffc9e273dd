import { and, eq } from "drizzle-orm";
import { functionVersions, hostedFunctions } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { notFound } from "@/lib/errors";
import { recordAudit } from "@/lib/domain/audit/record";
import { bumpFunctionsRevision } from "@/lib/domain/projects/functions-revision";
import { getFunctionRow } from "./crud";
import { scriptName, serializeFunction, serializeVersion } from "./serialize";

/** A function's deployed versions, newest first; `include=source` adds each one's source. */
export async function listVersions(ctx: Ctx, idOrSlug: string, params: PageParams & { include?: "source" | undefined }) {
  const fn = await getFunctionRow(ctx, idOrSlug);
  const scope = and(eq(functionVersions.projectId, ctx.project.id), eq(functionVersions.functionId, fn.id));
  const page = await paginate(ctx.db, functionVersions, scope, params);
  return { object: "list" as const, data: page.data.map((row) => serializeVersion(row, fn, params.include === "source")), has_more: page.has_more };
}

/** Makes an earlier version live again: only active_version_id (and the runtime and script name with it) move. */
export async function rollbackFunction(ctx: Ctx, idOrSlug: string, input: { version_id: string }) {
  const fn = await getFunctionRow(ctx, idOrSlug);
  const [version] = await ctx.db
    .select()
    .from(functionVersions)
    .where(and(eq(functionVersions.projectId, ctx.project.id), eq(functionVersions.functionId, fn.id), eq(functionVersions.id, input.version_id)));
  if (!version) throw notFound(`version of function ${fn.id}`, input.version_id);
  const updated = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(hostedFunctions)
      .set({ activeVersionId: version.id, runtime: version.runtime, scriptName: scriptName(fn.slug, version.number), updatedAt: ctx.now })
      .where(and(eq(hostedFunctions.projectId, ctx.project.id), eq(hostedFunctions.id, fn.id)))
      .returning();
    await bumpFunctionsRevision(tx, ctx.project.id);
    // Its own action, not a deploy: no new code arrived, an earlier version went live again.
    await recordAudit(
      { ...ctx, db: tx },
      {
        action: "function.rolled_back",
        target: { type: "function", id: fn.id },
        details: { slug: fn.slug, version_id: version.id, version_number: version.number, rollback_from: fn.activeVersionId },
      },
    );
    return row;
  });
  return serializeFunction(updated!, version.source);
}
