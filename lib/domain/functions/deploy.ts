import { and, eq, max } from "drizzle-orm";
import { functionVersions, hostedFunctions } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { newId } from "@/lib/ids";
import { recordAudit } from "@/lib/domain/audit/record";
import { bumpFunctionsRevision } from "@/lib/domain/projects/functions-revision";
import { compileFunctionSource, formatDiagnostic, sourcePosition } from "./compile";
import { getFunctionRow } from "./crud";
import { clearDeployedDraft } from "./drafts";
import { scriptName, type FunctionRow } from "./serialize";

/**
 * POST /functions/{id}/deploy (decisions.md "Hosted functions"): synchronous. Transpile, then run the
 * module's top level once in the sandbox under the limits, which also detects the runtime from its
 * exports. Success makes a new immutable version and moves active_version_id to it; any diagnostic
 * answers status "error" and changes nothing, so the previous version stays live. Both are 200.
 * A saved draft whose code is the deployed source goes with the deploy (drafts.ts).
 */
export async function deployFunction(ctx: Ctx, idOrSlug: string, input: { source: string }) {
  const fn = await getFunctionRow(ctx, idOrSlug);
  const bytes = Buffer.byteLength(input.source, "utf8");
  const answer = (fields: { status: "ok" | "error"; version_id: string | null; runtime: FunctionRow["runtime"] | null; diagnostics: string[] }) => ({
    object: "function_deploy" as const,
    function_id: fn.id,
    bytes,
    ...fields,
  });

  const compiled = await compileFunctionSource(input.source);
  if (!compiled.ok) return answer({ status: "error", version_id: null, runtime: null, diagnostics: compiled.diagnostics });
  const { code, sourceMap } = compiled.module;
  const checked = await ctx.ports.sandbox.check(code);
  if (!checked.ok) {
    const diagnostics = checked.diagnostics.map((d) => {
      const at = sourcePosition(sourceMap, d.line, d.column);
      return formatDiagnostic(at.line, at.column, d.message);
    });
    return answer({ status: "error", version_id: null, runtime: null, diagnostics });
  }

  const versionId = await ctx.db.transaction(async (tx) => {
    // One deploy at a time per function: version numbers are consecutive and the last one wins.
    await tx.select({ id: hostedFunctions.id }).from(hostedFunctions).where(eq(hostedFunctions.id, fn.id)).for("update");
    const [last] = await tx
      .select({ n: max(functionVersions.number) })
      .from(functionVersions)
      .where(eq(functionVersions.functionId, fn.id));
    const number = (last?.n ?? 0) + 1;
    const id = newId("functionVersion", ctx.now.getTime());
    await tx.insert(functionVersions).values({
      id,
      projectId: ctx.project.id,
      functionId: fn.id,
      number,
      source: input.source,
      code,
      sourceMap,
      runtime: checked.runtime,
      bytes,
      createdAt: ctx.now,
    });
    await tx
      .update(hostedFunctions)
      .set({ activeVersionId: id, runtime: checked.runtime, scriptName: scriptName(fn.slug, number), lastDeployedAt: ctx.now, updatedAt: ctx.now })
      .where(and(eq(hostedFunctions.projectId, ctx.project.id), eq(hostedFunctions.id, fn.id)));
    await bumpFunctionsRevision(tx, ctx.project.id);
    await clearDeployedDraft({ ...ctx, db: tx }, fn, input.source);
    await recordAudit(
      { ...ctx, db: tx },
      {
        action: "function.deployed",
        target: { type: "function", id: fn.id },
        details: { slug: fn.slug, version_id: id, version_number: number, runtime: checked.runtime, bytes },
      },
    );
    return id;
  });
  return answer({ status: "ok", version_id: versionId, runtime: checked.runtime, diagnostics: [] });
}
