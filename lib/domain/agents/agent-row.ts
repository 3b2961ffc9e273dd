import { and, eq } from "drizzle-orm";
import { businessAgentConnectors, businessAgents, businessAgentTools } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { notFound } from "@/lib/errors";

/**
 * Row lookups of the agents module, each filtered by the caller's project: another project's id is
 * a 404, never a 403 (CONTRIBUTING rule 2).
 */

export type AgentRow = typeof businessAgents.$inferSelect;
export type ConnectorRow = typeof businessAgentConnectors.$inferSelect;
export type ToolRow = typeof businessAgentTools.$inferSelect;

type Lookup = Pick<Ctx, "db" | "project">;

export async function getAgentRowOrThrow(ctx: Lookup, id: string): Promise<AgentRow> {
  const [row] = await ctx.db
    .select()
    .from(businessAgents)
    .where(and(eq(businessAgents.projectId, ctx.project.id), eq(businessAgents.id, id)))
    .limit(1);
  if (!row) throw notFound("business agent", id);
  return row;
}

export async function getConnectorRowOrThrow(ctx: Lookup, id: string): Promise<ConnectorRow> {
  const [row] = await ctx.db
    .select()
    .from(businessAgentConnectors)
    .where(and(eq(businessAgentConnectors.projectId, ctx.project.id), eq(businessAgentConnectors.id, id)))
    .limit(1);
  if (!row) throw notFound("business agent connector", id);
  return row;
}

export async function getToolRowOrThrow(ctx: Lookup, id: string): Promise<ToolRow> {
  const [row] = await ctx.db
    .select()
    .from(businessAgentTools)
    .where(and(eq(businessAgentTools.projectId, ctx.project.id), eq(businessAgentTools.id, id)))
    .limit(1);
  if (!row) throw notFound("business agent tool", id);
  return row;
}
