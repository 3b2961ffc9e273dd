import type { ConnectorRow, ToolRow } from "@/lib/domain/agents/agent-row";
import type { SkillFields } from "@/lib/domain/agents/skill-schema";
import type { DesiredAgent, DesiredConnector, DesiredTool } from "./agent-judge";
import { jsonEqual } from "./compare";
import { error, pathOf, warning, type ConfigIssue } from "./issues";
import type { AgentFacts } from "./load";

/**
 * The diff of the `business_agents` entries (docs/spec/decisions.md "Business agents"), pure. Items:
 * `business_agent` keyed by channel id, `business_agent_connector` by "<channel>/<connector key>",
 * `business_agent_tool` by "<channel>/<connector key>/<tool name>". A config-owned connector (it has
 * a config key) the entry no longer lists is deleted with its tools; an agent is never deleted.
 */
export type AgentDiffType = "business_agent" | "business_agent_connector" | "business_agent_tool";

interface AgentDiffItem {
  type: AgentDiffType;
  key: string;
  action: "create" | "update" | "delete" | "unchanged";
  changes?: string[];
}

export interface AgentPlan {
  channelId: string;
  /** applyAgent's settings: set when the agent is created or its settings change, else null (applyAgent is not called). */
  settings: Record<string, unknown> | null;
  /** putSkills' list when it changes. */
  skills: SkillFields[] | null;
  toolDeletes: string[];
  connectorDeletes: string[];
  connectorUpdates: Array<{ id: string; connector: DesiredConnector }>;
  connectorCreates: DesiredConnector[];
  toolUpdates: Array<{ id: string; tool: DesiredTool }>;
  toolCreates: Array<{ connectorKey: string; tool: DesiredTool }>;
}

export interface AgentDiff {
  items: AgentDiffItem[];
  plans: AgentPlan[];
  issues: ConfigIssue[];
}

const itemOf = (type: AgentDiffType, key: string, changes: string[], exists: boolean): AgentDiffItem =>
  !exists ? { type, key, action: "create" } : changes.length ? { type, key, action: "update", changes } : { type, key, action: "unchanged" };

export function agentDiff(desired: readonly DesiredAgent[] | null, facts: AgentFacts): AgentDiff {
  const out: AgentDiff = { items: [], plans: [], issues: [] };
  if (desired === null) return out;
  const listed = new Set<string>();
  for (const agent of desired) {
    if (listed.has(agent.channelId)) continue; // a duplicate channel: an error already
    listed.add(agent.channelId);
    diffAgent(agent, facts, out);
  }
  for (const row of facts.agents.filter((a) => !listed.has(a.channelId))) {
    out.issues.push(
      warning(
        "business_agents",
        `The agent of channel ${row.channelId} (${row.id}) is not in the document: it is left as it is, connectors included (config never deletes an agent).`,
      ),
    );
  }
  return out;
}

function diffAgent(agent: DesiredAgent, facts: AgentFacts, out: AgentDiff): void {
  const row = agent.row;
  const settingsChanged = row !== null && agent.settings !== undefined && Object.entries(agent.settings).some(([k, v]) => !jsonEqual(row.settings[k], v));
  const skillsChanged = agent.skills !== undefined && !jsonEqual(row?.skills ?? [], agent.skills);
  const changes = [...(settingsChanged ? ["settings"] : []), ...(skillsChanged ? ["skills"] : [])];
  out.items.push(itemOf("business_agent", agent.channelId, changes, row !== null));
  if ((row === null || settingsChanged) && agent.ineligible) out.issues.push(error(pathOf("business_agents", agent.index, "channel_id"), agent.ineligible));
  const plan: AgentPlan = {
    channelId: agent.channelId,
    settings: row === null ? (agent.settings ?? {}) : settingsChanged ? agent.settings! : null,
    skills: skillsChanged ? agent.skills! : null,
    toolDeletes: [],
    connectorDeletes: [],
    connectorUpdates: [],
    connectorCreates: [],
    toolUpdates: [],
    toolCreates: [],
  };
  const owned = new Map(row ? facts.connectors.filter((c) => c.businessAgentId === row.id && c.configKey !== null).map((c) => [c.configKey!, c]) : []);
  const seen = new Set<string>();
  for (const connector of agent.connectors) {
    if (seen.has(connector.key)) continue;
    seen.add(connector.key);
    diffConnector(`${agent.channelId}/${connector.key}`, connector, owned.get(connector.key) ?? null, facts, { out, plan });
  }
  for (const [key, existing] of owned) {
    if (seen.has(key)) continue;
    out.items.push({ type: "business_agent_connector", key: `${agent.channelId}/${key}`, action: "delete" });
    for (const tool of toolsOf(facts, existing))
      out.items.push({ type: "business_agent_tool", key: `${agent.channelId}/${key}/${tool.name}`, action: "delete" });
    plan.connectorDeletes.push(existing.id); // its tools go with it (foreign key cascade)
  }
  out.plans.push(plan);
}

function toolsOf(facts: AgentFacts, connector: ConnectorRow): ToolRow[] {
  return facts.tools.filter((tool) => tool.connectorId === connector.id);
}

function connectorChanges(row: ConnectorRow, desired: DesiredConnector): string[] {
  const changes: string[] = [];
  if (row.name !== desired.name) changes.push("name");
  if (row.type !== desired.type) changes.push("type");
  if (row.status !== desired.status) changes.push("status");
  if (!jsonEqual(row.config ?? null, desired.storedConfig) || desired.secretChanged) changes.push("config");
  return changes;
}

function toolChanges(row: ToolRow, desired: DesiredTool): string[] {
  const pairs: Array<[string, unknown, unknown]> = [
    ["description", row.description, desired.description],
    ["backing_type", row.backingType, desired.backingType],
    ["backing_flow_id", row.backingFlowId, desired.backingFlowId],
    ["backing_function_id", row.backingFunctionId, desired.backingFunctionId],
    ["input_schema", row.inputSchema ?? null, desired.inputSchema],
    ["config", row.config ?? null, desired.config],
  ];
  return pairs.filter(([, stored, wanted]) => !jsonEqual(stored, wanted)).map(([field]) => field);
}

function diffConnector(key: string, connector: DesiredConnector, row: ConnectorRow | null, facts: AgentFacts, into: { out: AgentDiff; plan: AgentPlan }) {
  const { out, plan } = into;
  const changes = row ? connectorChanges(row, connector) : [];
  out.items.push(itemOf("business_agent_connector", key, changes, row !== null));
  if (!row) plan.connectorCreates.push(connector);
  else if (changes.length) plan.connectorUpdates.push({ id: row.id, connector });
  const existing = new Map(row ? toolsOf(facts, row).map((tool) => [tool.name, tool]) : []);
  // A type change re-creates the connector's tools: API_ENDPOINT tools and an API connector only make sense together.
  const rewrite = row !== null && row.type !== connector.type;
  if (rewrite) plan.toolDeletes.push(...[...existing.values()].map((tool) => tool.id));
  const listed = new Set<string>();
  for (const tool of connector.tools) {
    if (listed.has(tool.name)) continue;
    listed.add(tool.name);
    const stored = existing.get(tool.name);
    const toolChanged = stored ? toolChanges(stored, tool) : [];
    out.items.push(itemOf("business_agent_tool", `${key}/${tool.name}`, toolChanged, stored !== undefined));
    if (!stored || rewrite) plan.toolCreates.push({ connectorKey: connector.key, tool });
    else if (toolChanged.length) plan.toolUpdates.push({ id: stored.id, tool });
  }
  for (const [name, stored] of existing) {
    if (listed.has(name)) continue;
    out.items.push({ type: "business_agent_tool", key: `${key}/${name}`, action: "delete" });
    if (!rewrite) plan.toolDeletes.push(stored.id);
  }
}
