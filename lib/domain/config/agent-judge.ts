import { unseal } from "@/lib/crypto/secrets";
import type { AgentRow, ConnectorRow } from "@/lib/domain/agents/agent-row";
import { SECRET_MASK, storedConfig, type ConnectorType } from "@/lib/domain/agents/connector-secret";
import { blockersOf, judgeEligibility } from "@/lib/domain/agents/eligibility";
import { storedSkill, type SkillFields } from "@/lib/domain/agents/skill-schema";
import { resolveBacking, type BackingType } from "@/lib/domain/agents/tool-backing";
import { getChannelRowOrThrow } from "@/lib/domain/channels";
import type { Ctx } from "@/lib/domain/context";
import { assertJsonSchema } from "@/lib/domain/functions/input-schema";
import { SvcError } from "@/lib/errors";
import type { AgentEntry, ConnectorEntry, ToolEntry } from "./agent-entry";
import { flowBackingRef } from "./agent-checks";
import type { ConfigDocument } from "./schema";
import { error, pathOf, type ConfigIssue } from "./issues";
import type { ConfigFacts } from "./load";

/**
 * The `business_agents` entries as the project would hold them, judged with the agents module's own
 * rules (docs/spec/decisions.md "Business agents"): the channel through eligibility.ts, a connector's
 * config through connector-secret.ts, a tool's backing through tool-backing.ts. Their refusals
 * become error issues at the entry's path instead of a 4xx. Async: visibility and backings are read
 * from the database, as the API reads them.
 */
export interface DesiredTool {
  index: number;
  name: string;
  description: string | null;
  backingType: BackingType;
  backingFlowId: string | null;
  backingFunctionId: string | null;
  inputSchema: Record<string, unknown> | null;
  config: Record<string, unknown> | null;
}

export interface DesiredConnector {
  index: number;
  key: string;
  name: string;
  type: ConnectorType;
  status: "ACTIVE" | "DISABLED";
  /** As the document gives it, secret included: what the connectors verbs are called with. */
  config: Record<string, unknown> | null;
  /** As it would be stored (the API connector's defaults filled in), the secret apart: what is compared. */
  storedConfig: Record<string, unknown> | null;
  secretChanged: boolean;
  tools: DesiredTool[];
}

export interface DesiredAgent {
  index: number;
  channelId: string;
  row: AgentRow | null;
  settings: Record<string, unknown> | undefined;
  skills: SkillFields[] | undefined;
  connectors: DesiredConnector[];
  /** Why the channel cannot take a new agent or new settings (an error only when the apply does either); null when it can. */
  ineligible: string | null;
}

export interface JudgedAgents {
  desired: DesiredAgent[];
  issues: ConfigIssue[];
}

export async function judgeAgents(ctx: Ctx, doc: ConfigDocument, facts: ConfigFacts): Promise<JudgedAgents> {
  const desired: DesiredAgent[] = [];
  const issues: ConfigIssue[] = [];
  for (const [index, entry] of (doc.business_agents ?? []).entries()) {
    const row = facts.agents.agents.find((agent) => agent.channelId === entry.channel_id) ?? null;
    const at = (...segments: Array<string | number>) => pathOf("business_agents", index, ...segments);
    const ineligible = await channelProblem(ctx, entry, facts, at("channel_id"), issues);
    const connectors: DesiredConnector[] = [];
    for (const [j, connector] of entry.connectors.entries()) {
      const existing = row ? (facts.agents.connectors.find((c) => c.businessAgentId === row.id && c.configKey === connector.key) ?? null) : null;
      connectors.push(await judgeConnector(ctx, { doc, facts, existing, issues, at: (...s) => at("connectors", j, ...s) }, connector, j));
    }
    desired.push({ index, channelId: entry.channel_id, row, settings: entry.settings, skills: entry.skills?.map(storedSkill), connectors, ineligible });
  }
  return { desired, issues };
}

/** A channel the project cannot see is an error now; an ineligible one only if the apply would create the agent or change its settings. */
async function channelProblem(ctx: Ctx, entry: AgentEntry, facts: ConfigFacts, path: string, issues: ConfigIssue[]): Promise<string | null> {
  let channel;
  try {
    channel = await getChannelRowOrThrow(ctx, entry.channel_id);
  } catch (failure) {
    if (!SvcError.is(failure) || failure.code !== "not_found") throw failure;
    issues.push(error(path, `No channel '${entry.channel_id}' visible to this project: name one of GET /channels (or ch_sandbox).`));
    return null;
  }
  const eligibility = judgeEligibility(channel, facts.project, ctx.now);
  if (eligibility.eligible) return null;
  return `Channel ${channel.id} cannot carry a business agent: ${blockersOf(eligibility).join(", ")} (GET /business-agents/eligibility?channel_id=${channel.id}).`;
}

interface ConnectorScope {
  doc: ConfigDocument;
  facts: ConfigFacts;
  existing: ConnectorRow | null;
  issues: ConfigIssue[];
  at: (...segments: Array<string | number>) => string;
}

async function judgeConnector(ctx: Ctx, scope: ConnectorScope, entry: ConnectorEntry, index: number): Promise<DesiredConnector> {
  const { existing, issues, at } = scope;
  const config = entry.config ?? null;
  let stored: Record<string, unknown> | null = config;
  try {
    stored = storedConfig(entry.type, config, existing ? { config: existing.config ?? null, sealedSecret: existing.sealedSecret } : null).config;
  } catch (failure) {
    issues.push(...issuesOf(failure, at()));
  }
  // The pseudo row carries what resolveBacking reads of a connector: its id and its type after this apply.
  const connectorRow = { ...(existing ?? syntheticConnector(scope.facts)), type: entry.type };
  const tools: DesiredTool[] = [];
  for (const [k, tool] of entry.tools.entries()) tools.push(await judgeTool(ctx, { ...scope, at: (...s) => at("tools", k, ...s) }, connectorRow, tool, k));
  return {
    index,
    key: entry.key,
    name: entry.name,
    type: entry.type,
    status: entry.status ?? "ACTIVE",
    config,
    storedConfig: stored,
    secretChanged: secretChanged(config?.secret, existing?.sealedSecret ?? null),
    tools,
  };
}

function syntheticConnector(facts: ConfigFacts): ConnectorRow {
  const epoch = new Date(0);
  return {
    id: "(new connector)",
    projectId: facts.project.id,
    businessAgentId: "(new agent)",
    metaConnectorId: null,
    configKey: null,
    name: "",
    type: "CUSTOM",
    config: null,
    sealedSecret: null,
    status: "ACTIVE",
    createdAt: epoch,
    updatedAt: epoch,
  };
}

/** connector-secret.ts's rule: left out or masked keeps the stored secret, null removes it, a new value replaces it. */
function secretChanged(sent: unknown, sealed: string | null): boolean {
  if (sent === undefined || (typeof sent === "string" && sent.startsWith(SECRET_MASK))) return false;
  if (sent === null) return sealed !== null;
  return sealed === null || unseal(sealed) !== sent;
}

/** A 400 with `issues` ({"config.base_url": [...]}) as ConfigIssues under `prefix`. */
function issuesOf(failure: unknown, prefix: string): ConfigIssue[] {
  if (!SvcError.is(failure) || failure.code !== "invalid_request") throw failure;
  const map = (failure.details.issues ?? {}) as Record<string, string[]>;
  const out = Object.entries(map).flatMap(([key, messages]) => messages.map((message) => error(pathOf(prefix, key), message)));
  return out.length ? out : [error(prefix, failure.message)];
}

async function judgeTool(ctx: Ctx, scope: ConnectorScope, connector: ConnectorRow, entry: ToolEntry, index: number): Promise<DesiredTool> {
  const { issues, at } = scope;
  const tool: DesiredTool = {
    index,
    name: entry.name,
    description: entry.description ?? null,
    backingType: entry.backing_type,
    backingFlowId: entry.backing_flow_id ?? null,
    backingFunctionId: entry.backing_function_id ?? null,
    inputSchema: entry.input_schema ?? null,
    config: entry.config ?? null,
  };
  if (tool.inputSchema) {
    try {
      assertJsonSchema(tool.inputSchema);
    } catch (failure) {
      issues.push(...issuesOf(failure, at()));
    }
  }
  const stray = strayBackingField(entry);
  if (stray) {
    issues.push(error(at(stray), `${stray} is for ${stray === "backing_flow_id" ? "FLOW" : "HOSTED_FUNCTION"} tools; this one is ${entry.backing_type}.`));
    return tool;
  }
  if (entry.backing_type === "FLOW" && tool.backingFlowId) {
    const ref = flowBackingRef(tool.backingFlowId, scope.doc, scope.facts);
    if ("problem" in ref) {
      issues.push(error(at("backing_flow_id"), ref.problem));
      return tool;
    }
    tool.backingFlowId = ref.id;
  }
  try {
    const backing = await resolveBacking(ctx, connector, {
      backing_type: tool.backingType,
      backing_flow_id: tool.backingFlowId,
      backing_function_id: tool.backingFunctionId,
      config: tool.config,
    });
    return { ...tool, ...backing };
  } catch (failure) {
    if (!SvcError.is(failure) || failure.code !== "invalid_tool_backing") throw failure;
    issues.push(error(at(backingField(entry.backing_type, failure.details)), failure.message));
    return tool;
  }
}

function strayBackingField(entry: ToolEntry): "backing_flow_id" | "backing_function_id" | null {
  if (entry.backing_type !== "FLOW" && entry.backing_flow_id) return "backing_flow_id";
  if (entry.backing_type !== "HOSTED_FUNCTION" && entry.backing_function_id) return "backing_function_id";
  return null;
}

/** Where tool-backing.ts's refusal points in the entry. */
function backingField(type: BackingType, details: Record<string, unknown>): string {
  if (type === "FLOW") return "backing_flow_id";
  if (type === "HOSTED_FUNCTION") return "backing_function_id";
  return details.connector_id !== undefined ? "backing_type" : "config";
}
