import { asc, eq, sql } from "drizzle-orm";
import { automations, flows, hostedFunctions, projects } from "@/lib/db/schema";
import type { Ctx, ProjectRow } from "@/lib/domain/context";
import type { FlowRow } from "@/lib/domain/flows/serialize";
import { notFound } from "@/lib/errors";

export type AutomationRow = typeof automations.$inferSelect;

export interface FunctionFact {
  id: string;
  slug: string;
  deployed: boolean;
  active: boolean;
}

/**
 * What config-as-code judges a document against (CONTRIBUTING.md "Load, then judge"): the project,
 * every flow (flows without a config_key too: an automation may name one by id), the automations in
 * document order, and the functions a run_function step may name. Everything is the key's project only.
 */
export interface ConfigFacts {
  project: ProjectRow;
  flows: FlowRow[];
  automations: AutomationRow[];
  functions: FunctionFact[];
}

export async function loadConfigFacts(ctx: Ctx): Promise<ConfigFacts> {
  const projectId = ctx.project.id;
  const [project] = await ctx.db.select().from(projects).where(eq(projects.id, projectId));
  if (!project) throw notFound("project", projectId);
  const flowRows = await ctx.db.select().from(flows).where(eq(flows.projectId, projectId)).orderBy(asc(flows.id));
  const automationRows = await ctx.db
    .select()
    .from(automations)
    .where(eq(automations.projectId, projectId))
    .orderBy(asc(automations.position), asc(automations.id));
  const functionRows = await ctx.db
    .select({ id: hostedFunctions.id, slug: hostedFunctions.slug, activeVersionId: hostedFunctions.activeVersionId, isActive: hostedFunctions.isActive })
    .from(hostedFunctions)
    .where(eq(hostedFunctions.projectId, projectId));
  return {
    project,
    flows: flowRows,
    automations: automationRows,
    functions: functionRows.map((f) => ({ id: f.id, slug: f.slug, deployed: f.activeVersionId !== null, active: f.isActive })),
  };
}

/**
 * Two applies of one project run one after the other (a transaction-scoped advisory lock), so the
 * second judges what the first wrote instead of racing it to the same (key, locale).
 */
export async function lockProjectConfig(ctx: Pick<Ctx, "db" | "project">): Promise<void> {
  await ctx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`config:${ctx.project.id}`}))`);
}
