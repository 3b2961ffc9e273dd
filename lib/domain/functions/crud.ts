import { and, eq, or, type SQL } from "drizzle-orm";
import { businessAgentTools, functionVersions, hostedFunctions } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { isUniqueViolation } from "@/lib/domain/shared/unique-violation";
import { SvcError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { FunctionTriggerType } from "@/lib/shared/functions";
import { automationsUsingFunction } from "@/lib/domain/automations/references";
import { bumpFunctionsRevision } from "@/lib/domain/projects/functions-revision";
import { assertJsonSchema } from "./input-schema";
import { scriptName, serializeFunction, type FunctionRow } from "./serialize";

/** CRUD of hosted functions (docs/spec/service-spec.md "Hosted function"); an id or a slug addresses one. */

export interface FunctionCreateInput {
  slug: string;
  name: string;
  trigger_type: FunctionTriggerType;
}

export interface FunctionUpdateInput {
  name?: string | undefined;
  expose_as_mcp_tool?: boolean | undefined;
  is_active?: boolean | undefined;
  input_schema?: Record<string, unknown> | null | undefined;
}

function slugTaken(slug: string) {
  return new SvcError("function_conflict", `A function with slug '${slug}' exists in this project. Choose another slug, or edit that function.`, {
    issues: { slug: ["Already used in this project."] },
  });
}

/** Where-clause of the project's function addressed by id (`fn_...`) or slug. */
export function functionAddressed(ctx: Pick<Ctx, "project">, idOrSlug: string) {
  return and(eq(hostedFunctions.projectId, ctx.project.id), or(eq(hostedFunctions.id, idOrSlug), eq(hostedFunctions.slug, idOrSlug)));
}

/** The project's function by id (`fn_...`) or slug: another project's is a 404. */
export async function getFunctionRow(ctx: Ctx, idOrSlug: string): Promise<FunctionRow> {
  const [row] = await ctx.db.select().from(hostedFunctions).where(functionAddressed(ctx, idOrSlug)).limit(1);
  if (!row) throw notFound("function", idOrSlug);
  return row;
}

export async function createFunction(ctx: Ctx, input: FunctionCreateInput) {
  try {
    const row = await ctx.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(hostedFunctions)
        .values({
          id: newId("function", ctx.now.getTime()),
          projectId: ctx.project.id,
          slug: input.slug,
          name: input.name,
          triggerType: input.trigger_type,
          runtime: "PLAIN",
          scriptName: scriptName(input.slug, 0),
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })
        .returning();
      await bumpFunctionsRevision(tx, ctx.project.id);
      return inserted;
    });
    return serializeFunction(row!);
  } catch (error) {
    if (isUniqueViolation(error, "hosted_functions_project_slug")) throw slugTaken(input.slug);
    throw error;
  }
}

export async function getFunction(ctx: Ctx, idOrSlug: string) {
  const row = await getFunctionRow(ctx, idOrSlug);
  let source: string | null = null;
  if (row.activeVersionId) {
    const [version] = await ctx.db
      .select({ source: functionVersions.source })
      .from(functionVersions)
      .where(and(eq(functionVersions.projectId, ctx.project.id), eq(functionVersions.id, row.activeVersionId)));
    source = version?.source ?? null;
  }
  return serializeFunction(row, source);
}

export async function listFunctions(
  ctx: Ctx,
  params: PageParams & { trigger_type?: FunctionTriggerType | undefined; is_active?: "true" | "false" | undefined },
) {
  const filters: SQL[] = [];
  if (params.trigger_type) filters.push(eq(hostedFunctions.triggerType, params.trigger_type));
  if (params.is_active) filters.push(eq(hostedFunctions.isActive, params.is_active === "true"));
  const page = await paginate(ctx.db, hostedFunctions, eq(hostedFunctions.projectId, ctx.project.id), params, filters.length ? and(...filters) : undefined);
  return { object: "list" as const, data: page.data.map((row) => serializeFunction(row)), has_more: page.has_more };
}

export async function updateFunction(ctx: Ctx, idOrSlug: string, input: FunctionUpdateInput) {
  const row = await getFunctionRow(ctx, idOrSlug);
  if (input.input_schema) assertJsonSchema(input.input_schema);
  const updated = await ctx.db.transaction(async (tx) => {
    const [changed] = await tx
      .update(hostedFunctions)
      .set({
        name: input.name ?? row.name,
        exposeAsMcpTool: input.expose_as_mcp_tool ?? row.exposeAsMcpTool,
        isActive: input.is_active ?? row.isActive,
        inputSchema: input.input_schema !== undefined ? input.input_schema : row.inputSchema,
        updatedAt: ctx.now,
      })
      .where(and(eq(hostedFunctions.projectId, ctx.project.id), eq(hostedFunctions.id, row.id)))
      .returning();
    await bumpFunctionsRevision(tx, ctx.project.id);
    return changed;
  });
  return serializeFunction(updated!);
}

/**
 * Deletes the function with its versions, secrets, KV and invocation log. While an automation's
 * run_function step or a business agent's HOSTED_FUNCTION tool names it: 409 function_in_use with the
 * `references` (a tool whose function is gone would only fail when a customer triggers it).
 */
export async function deleteFunction(ctx: Ctx, idOrSlug: string) {
  const row = await getFunctionRow(ctx, idOrSlug);
  const [usingAutomations, usingTools] = await Promise.all([
    automationsUsingFunction(ctx.db, ctx.project.id, row),
    ctx.db
      .select({ id: businessAgentTools.id, name: businessAgentTools.name })
      .from(businessAgentTools)
      .where(and(eq(businessAgentTools.projectId, ctx.project.id), eq(businessAgentTools.backingFunctionId, row.id))),
  ]);
  const references = [
    ...usingAutomations.map((a) => ({ type: "automation", id: a.id, key: a.key, name: a.name, label: `automation '${a.key}'` })),
    ...usingTools.map((t) => ({ type: "business_agent_tool", id: t.id, name: t.name, label: `agent tool '${t.name}'` })),
  ];
  if (references.length > 0) {
    throw new SvcError(
      "function_in_use",
      `Function ${row.slug} is used by ${references.map((r) => r.label).join(", ")}. Remove those references (apply config without the run_function steps, delete or re-back the tools) before deleting it.`,
      { references: references.map(({ label: _label, ...reference }) => reference) },
    );
  }
  await ctx.db.transaction(async (tx) => {
    await tx.delete(hostedFunctions).where(and(eq(hostedFunctions.projectId, ctx.project.id), eq(hostedFunctions.id, row.id)));
    await bumpFunctionsRevision(tx, ctx.project.id);
  });
  return { object: "hosted_function" as const, id: row.id, deleted: true as const };
}
