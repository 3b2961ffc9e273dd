import { and, eq } from "drizzle-orm";
import { businessAgentConnectors } from "@/lib/db/schema";
import { createConnector, deleteConnector, updateConnector } from "@/lib/domain/agents/connectors";
import { agentOfChannel, applyAgent } from "@/lib/domain/agents/crud";
import { putSkills } from "@/lib/domain/agents/skills";
import { createTool, deleteTool, updateTool, type ToolCreateInput } from "@/lib/domain/agents/tools";
import type { Ctx } from "@/lib/domain/context";
import { notFound } from "@/lib/errors";
import type { AgentPlan } from "./agent-diff";
import type { DesiredTool } from "./agent-judge";

/**
 * Writes the `business_agents` part of a plan through the agents module's own verbs, inside apply's
 * one transaction (`ctx.db` is it): applyAgent enqueues agents.provision in it, as it does for POST
 * /business-agents. Order per agent: the agent, then deletions (a tool name is free again before a
 * create takes it), updates, creates, and the skills last (they name tools).
 */
export async function writeAgentPlans(ctx: Ctx, plans: readonly AgentPlan[]): Promise<void> {
  for (const plan of plans) await writeAgentPlan(ctx, plan);
}

async function writeAgentPlan(ctx: Ctx, plan: AgentPlan): Promise<void> {
  if (plan.settings !== null) await applyAgent(ctx, { ...plan.settings, channel_id: plan.channelId });
  const agent = await agentOfChannel(ctx, plan.channelId);
  if (!agent) throw notFound("business agent of channel", plan.channelId);
  for (const id of plan.toolDeletes) await deleteTool(ctx, id);
  for (const id of plan.connectorDeletes) await deleteConnector(ctx, id);
  for (const { id, connector } of plan.connectorUpdates) {
    await updateConnector(ctx, id, { name: connector.name, type: connector.type, config: connector.config, status: connector.status });
  }
  for (const connector of plan.connectorCreates) {
    await createConnector(
      ctx,
      agent.id,
      { name: connector.name, type: connector.type, config: connector.config, status: connector.status },
      { configKey: connector.key },
    );
  }
  for (const { id, tool } of plan.toolUpdates) await updateTool(ctx, id, toolInput(tool));
  if (plan.toolCreates.length) {
    const connectorIds = await connectorIdsByKey(ctx, agent.id);
    for (const { connectorKey, tool } of plan.toolCreates) await createTool(ctx, connectorIds.get(connectorKey)!, toolInput(tool));
  }
  if (plan.skills !== null) await putSkills(ctx, agent.id, { business_agent_id: agent.id, skills: plan.skills });
}

/** Every field given (null when the document leaves it out): the document is the whole tool. */
function toolInput(tool: DesiredTool): ToolCreateInput {
  return {
    name: tool.name,
    description: tool.description,
    backing_type: tool.backingType,
    backing_flow_id: tool.backingFlowId,
    backing_function_id: tool.backingFunctionId,
    input_schema: tool.inputSchema,
    config: tool.config,
  };
}

async function connectorIdsByKey(ctx: Ctx, agentId: string): Promise<Map<string, string>> {
  const rows = await ctx.db
    .select({ id: businessAgentConnectors.id, key: businessAgentConnectors.configKey })
    .from(businessAgentConnectors)
    .where(and(eq(businessAgentConnectors.projectId, ctx.project.id), eq(businessAgentConnectors.businessAgentId, agentId)));
  return new Map(rows.filter((row) => row.key !== null).map((row) => [row.key!, row.id]));
}
