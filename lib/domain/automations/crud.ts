import { and, asc, eq, gt, or, type SQL } from "drizzle-orm";
import { automationRuns, automations, type AutomationRunStatus } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { invalidRequest, notFound } from "@/lib/errors";
import type { AutomationRow } from "./runs";
import { serializeAutomation, serializeRun } from "./serialize";

/**
 * The automations API's reads (docs/spec/decisions.md "Automations (routing FLOWS)"); its writes are
 * edit.ts, judged by config validate's checks.
 */

export async function getAutomationRow(ctx: Pick<Ctx, "db" | "project">, id: string): Promise<AutomationRow> {
  const [row] = await ctx.db
    .select()
    .from(automations)
    .where(and(eq(automations.projectId, ctx.project.id), eq(automations.id, id)));
  if (!row) throw notFound("automation", id);
  return row;
}

export async function getAutomation(ctx: Ctx, id: string) {
  return serializeAutomation(await getAutomationRow(ctx, id));
}

/**
 * In config order (the order that decides between two matching KEYWORD automations), not newest
 * first: the cursor is an automation's id and the next page starts after its position.
 */
export async function listAutomations(ctx: Ctx, params: PageParams & { active?: "true" | "false" | undefined }) {
  const scope = eq(automations.projectId, ctx.project.id);
  const filter = params.active ? eq(automations.active, params.active === "true") : undefined;
  let after: SQL | undefined;
  if (params.starting_after) {
    const [cursor] = await ctx.db
      .select({ id: automations.id, position: automations.position })
      .from(automations)
      .where(and(scope, eq(automations.id, params.starting_after)));
    if (!cursor) {
      throw invalidRequest(`starting_after '${params.starting_after}' is not an item of this list.`, {
        starting_after: ["Unknown cursor: pass the id of an item from a previous page of this list."],
      });
    }
    after = or(gt(automations.position, cursor.position), and(eq(automations.position, cursor.position), gt(automations.id, cursor.id)));
  }
  const rows = await ctx.db
    .select()
    .from(automations)
    .where(and(scope, filter, after))
    .orderBy(asc(automations.position), asc(automations.id))
    .limit(params.limit + 1);
  return { object: "list" as const, data: rows.slice(0, params.limit).map(serializeAutomation), has_more: rows.length > params.limit };
}

/** The automation's runs, newest first, optionally of one status. */
export async function listAutomationRuns(ctx: Ctx, id: string, params: PageParams & { status?: AutomationRunStatus | undefined }) {
  const automation = await getAutomationRow(ctx, id);
  const scope = and(eq(automationRuns.projectId, ctx.project.id), eq(automationRuns.automationId, automation.id));
  const page = await paginate(ctx.db, automationRuns, scope, params, params.status ? eq(automationRuns.status, params.status) : undefined);
  return { object: "list" as const, data: page.data.map((run) => serializeRun(run, automation.steps)), has_more: page.has_more };
}

/** GET /automation-runs/{id}: one run with its steps (its automation's steps as they are now name the step at step_index). */
export async function getAutomationRun(ctx: Ctx, id: string) {
  const [row] = await ctx.db
    .select({ run: automationRuns, steps: automations.steps })
    .from(automationRuns)
    .innerJoin(automations, eq(automations.id, automationRuns.automationId))
    .where(and(eq(automationRuns.projectId, ctx.project.id), eq(automationRuns.id, id)));
  if (!row) throw notFound("automation run", id);
  return serializeRun(row.run, row.steps);
}
