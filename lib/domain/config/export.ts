import { automationEntrySchema, type AutomationEntry } from "@/lib/domain/automations/definition";
import type { Ctx, Settings } from "@/lib/domain/context";
import type { FlowRow } from "@/lib/domain/flows/serialize";
import { draftSchema, flowJsonSchema, type FlowEntry } from "./flow-entry";
import { CONFIG_VERSION, type ConfigDocument } from "./schema";
import { isConfigOwned } from "./desired";
import { agentEntriesOf } from "./agent-export";
import { loadConfigFacts, type AutomationRow, type ConfigFacts } from "./load";

/**
 * GET /config: the project as a document that validates and re-applies to all `unchanged`. Keys come
 * in schema order (stored jsonb reorders them), defaults are left out, flows in creation order and
 * automations in document order. Flows without a config_key are not config's, so not exported; nor
 * are connectors without one, nor any connector secret (agent-export.ts).
 */
export async function exportConfig(ctx: Ctx): Promise<ConfigDocument> {
  return documentOf(await loadConfigFacts(ctx), ctx.settings);
}

export function schemaUrlOf(settings: Pick<Settings, "publicUrl">): string {
  return `${settings.publicUrl.replace(/\/+$/, "")}/api/v1/config/schema.json`;
}

export function documentOf(facts: ConfigFacts, settings: Pick<Settings, "publicUrl">): ConfigDocument {
  const { project } = facts;
  return {
    $schema: schemaUrlOf(settings),
    version: CONFIG_VERSION,
    project_id: project.id,
    require_opt_in: project.requireOptIn,
    project: { name: project.name, description: project.description, routing_mode: project.routingMode },
    webhook: { url: project.webhookUrl },
    flows: facts.flows.filter(isConfigOwned).map(flowEntryOf),
    automations: facts.automations.map(automationEntryOf),
    // Left out while the project has no agent: a document without business_agents leaves agents alone.
    ...(facts.agents.agents.length ? { business_agents: agentEntriesOf(facts.agents) } : {}),
  };
}

function flowEntryOf(row: FlowRow): FlowEntry {
  return {
    key: row.configKey!,
    name: row.name,
    ...(row.locale !== null ? { locale: row.locale } : {}),
    ...(row.description !== null ? { description: row.description } : {}),
    ...(row.runtimeMode !== "STATIC" ? { runtime_mode: row.runtimeMode } : {}),
    ...(row.dataExchangeUrl !== null ? { data_exchange_url: row.dataExchangeUrl } : {}),
    ...(row.draft !== null ? { draft: inSchemaOrder(draftSchema, row.draft) } : { flow_json: inSchemaOrder(flowJsonSchema, row.sourceFlowJson ?? {}) }),
  } as FlowEntry;
}

function automationEntryOf(row: AutomationRow): AutomationEntry {
  const entry = { key: row.key, name: row.name, trigger: row.trigger, steps: row.steps, active: row.active };
  return inSchemaOrder(automationEntrySchema, entry);
}

/** A stored value re-read through its schema puts its keys in schema order; one that no longer parses is exported as stored (validate will say why). */
function inSchemaOrder<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, value: unknown): T {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : (value as T);
}
