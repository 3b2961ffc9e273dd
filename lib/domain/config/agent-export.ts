import type { ConnectorRow, ToolRow } from "@/lib/domain/agents/agent-row";
import type { AgentEntry, ConnectorEntry, SkillEntry, ToolEntry } from "./agent-entry";
import type { AgentFacts } from "./load";

/**
 * The project's agents as `business_agents` entries (GET /config), oldest first, that re-apply to all
 * `unchanged`: every agent with its settings and skills, and only its config-owned connectors (a
 * connector made through the API is not config's). A connector's secret is never exported: the
 * entry leaves it out, and an apply without one keeps the stored secret.
 */
export function agentEntriesOf(facts: AgentFacts): AgentEntry[] {
  return facts.agents.map((agent) => ({
    channel_id: agent.channelId,
    ...(Object.keys(agent.settings).length ? { settings: agent.settings } : {}),
    skills: agent.skills as SkillEntry[],
    connectors: facts.connectors
      .filter((connector) => connector.businessAgentId === agent.id && connector.configKey !== null)
      .map((connector) =>
        connectorEntryOf(
          connector,
          facts.tools.filter((tool) => tool.connectorId === connector.id),
        ),
      ),
  }));
}

function connectorEntryOf(row: ConnectorRow, tools: ToolRow[]): ConnectorEntry {
  return {
    key: row.configKey!,
    name: row.name,
    type: row.type,
    ...(row.config ? { config: row.config } : {}),
    ...(row.status !== "ACTIVE" ? { status: row.status } : {}),
    tools: tools.map(toolEntryOf),
  };
}

function toolEntryOf(row: ToolRow): ToolEntry {
  return {
    name: row.name,
    ...(row.description !== null ? { description: row.description } : {}),
    backing_type: row.backingType,
    ...(row.backingFlowId !== null ? { backing_flow_id: row.backingFlowId } : {}),
    ...(row.backingFunctionId !== null ? { backing_function_id: row.backingFunctionId } : {}),
    ...(row.inputSchema ? { input_schema: row.inputSchema } : {}),
    ...(row.config ? { config: row.config } : {}),
  };
}
