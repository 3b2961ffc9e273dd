import { and, eq } from "drizzle-orm";
import { functionDrafts } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { getFunctionRow } from "./crud";
import { serializeDraft, type FunctionRow } from "./serialize";

/**
 * A function's draft (docs/api-decisions.md "Hosted functions", Drafts): code saved between visits
 * that runs nowhere. Saving never touches the live version; only a deploy does, and a deploy of
 * exactly the draft's code removes the draft (clearDeployedDraft, in the deploy's transaction).
 */

const ofFunction = (ctx: Pick<Ctx, "project">, fn: FunctionRow) => and(eq(functionDrafts.projectId, ctx.project.id), eq(functionDrafts.functionId, fn.id));

/** GET /functions/{id}/draft: the saved draft, or `source: null` when there is none (the live code is what an editor opens). */
export async function getDraft(ctx: Ctx, idOrSlug: string) {
  const fn = await getFunctionRow(ctx, idOrSlug);
  const [row] = await ctx.db.select().from(functionDrafts).where(ofFunction(ctx, fn)).limit(1);
  return serializeDraft(fn, row ?? null);
}

/** PUT /functions/{id}/draft: replaces the draft; the function's live version and runs are unchanged. */
export async function saveDraft(ctx: Ctx, idOrSlug: string, input: { source: string }) {
  const fn = await getFunctionRow(ctx, idOrSlug);
  const values = {
    source: input.source,
    bytes: Buffer.byteLength(input.source, "utf8"),
    baseVersionId: fn.activeVersionId,
    updatedAt: ctx.now,
  };
  const [row] = await ctx.db
    .insert(functionDrafts)
    .values({ functionId: fn.id, projectId: ctx.project.id, createdAt: ctx.now, ...values })
    .onConflictDoUpdate({ target: functionDrafts.functionId, set: values })
    .returning();
  return serializeDraft(fn, row!);
}

/** DELETE /functions/{id}/draft: drops the draft (none is no error, so a retry answers the same). */
export async function discardDraft(ctx: Ctx, idOrSlug: string) {
  const fn = await getFunctionRow(ctx, idOrSlug);
  await ctx.db.delete(functionDrafts).where(ofFunction(ctx, fn));
  return serializeDraft(fn, null);
}

/**
 * In a successful deploy's transaction: the draft is gone once its code is live. A draft that differs
 * (someone deployed other code through the API) is kept: it is still somebody's unfinished work.
 */
export async function clearDeployedDraft(ctx: Ctx, fn: FunctionRow, deployedSource: string): Promise<void> {
  await ctx.db.delete(functionDrafts).where(and(ofFunction(ctx, fn), eq(functionDrafts.source, deployedSource)));
}
