import type { AutomationEntry } from "@/lib/domain/automations/definition";
import type { FlowRow } from "@/lib/domain/flows/serialize";
import type { ConfigDocument, RoutingMode } from "./schema";
import { isConfigOwned, rowIdentity, type DesiredFlow } from "./desired";
import { agentDiff, type AgentDiffType, type AgentPlan } from "./agent-diff";
import type { DesiredAgent } from "./agent-judge";
import { automationChanges, flowChanges, movedIndexes } from "./compare";
import { error, warning, type ConfigIssue } from "./issues";
import type { ConfigFacts } from "./load";

/**
 * The diff of a document against the project (docs/spec/decisions.md "Config-as-code"), and the plan
 * apply.ts carries out. Pure. Flow items are keyed by their variant ("welcome" is the group default,
 * "welcome@es" its es entry); config-owned entities the document no longer lists are `delete`.
 */
type DiffAction = "create" | "update" | "delete" | "unchanged";
type DiffType = "flow" | "automation" | "webhook" | "project" | AgentDiffType;

export interface DiffItem {
  type: DiffType;
  key: string;
  action: DiffAction;
  /** On `update`: the fields that change, by their document names. */
  changes?: string[];
}

interface ProjectChanges {
  name?: string;
  description?: string | null;
  routing_mode?: RoutingMode;
  require_opt_in?: boolean;
  webhook_url?: string | null;
}

interface AutomationWrite {
  id: string | null;
  entry: AutomationEntry;
  position: number;
  /** Reported changes; a kept automation may also only shift position (written, reported unchanged). */
  changes: string[];
}

export interface ConfigPlan {
  project: ProjectChanges;
  flowCreates: DesiredFlow[];
  flowUpdates: Array<{ row: FlowRow; desired: DesiredFlow; changes: string[] }>;
  flowDeletes: FlowRow[];
  flowDeprecations: FlowRow[];
  automationWrites: AutomationWrite[];
  automationDeletes: string[];
  agents: AgentPlan[];
}

export interface ConfigDiff {
  items: DiffItem[];
  plan: ConfigPlan;
  issues: ConfigIssue[];
}

const item = (type: DiffType, key: string, changes: string[], exists = true): DiffItem =>
  !exists ? { type, key, action: "create" } : changes.length ? { type, key, action: "update", changes } : { type, key, action: "unchanged" };

/** `agents` is null when the document has no business_agents (the agents are then left as they are). */
export function diffDocument(
  doc: ConfigDocument,
  desired: readonly DesiredFlow[],
  facts: ConfigFacts,
  agents: readonly DesiredAgent[] | null = null,
): ConfigDiff {
  const project = projectDiff(doc, facts);
  const flows = flowDiff(desired, facts.flows);
  const automations = automationDiff(doc.automations, facts);
  const businessAgents = agentDiff(agents, facts.agents);
  return {
    items: [...project.items, ...flows.items, ...automations.items, ...businessAgents.items],
    plan: { project: project.changes, ...flows.plan, ...automations.plan, agents: businessAgents.plans },
    issues: [...flows.issues, ...businessAgents.issues],
  };
}

function projectDiff(doc: ConfigDocument, facts: ConfigFacts): { items: DiffItem[]; changes: ProjectChanges } {
  const current = facts.project;
  const changes: ProjectChanges = {};
  const given = { ...doc.project, ...(doc.require_opt_in !== undefined ? { require_opt_in: doc.require_opt_in } : {}) };
  if (given.name !== undefined && given.name !== current.name) changes.name = given.name;
  if (given.description !== undefined && given.description !== current.description) changes.description = given.description;
  if (given.routing_mode !== undefined && given.routing_mode !== current.routingMode) changes.routing_mode = given.routing_mode;
  if (given.require_opt_in !== undefined && given.require_opt_in !== current.requireOptIn) changes.require_opt_in = given.require_opt_in;
  const items: DiffItem[] = [];
  if (doc.project !== undefined || doc.require_opt_in !== undefined) items.push(item("project", current.id, Object.keys(changes)));
  if (doc.webhook !== undefined) {
    const [before, after] = [current.webhookUrl, doc.webhook.url];
    const action: DiffAction = before === after ? "unchanged" : before === null ? "create" : after === null ? "delete" : "update";
    items.push({ type: "webhook", key: "url", action, ...(action === "update" ? { changes: ["url"] } : {}) });
    if (before !== after) changes.webhook_url = after;
  }
  return { items, changes };
}

function flowDiff(desired: readonly DesiredFlow[], rows: readonly FlowRow[]) {
  const owned = new Map(rows.filter(isConfigOwned).map((row) => [rowIdentity(row), row]));
  const items: DiffItem[] = [];
  const issues: ConfigIssue[] = [];
  const plan: Pick<ConfigPlan, "flowCreates" | "flowUpdates" | "flowDeletes" | "flowDeprecations"> = {
    flowCreates: [],
    flowUpdates: [],
    flowDeletes: [],
    flowDeprecations: [],
  };
  const listed = new Set<string>();
  for (const flow of desired) {
    if (listed.has(flow.identity)) continue; // a duplicate (key, locale): an error already
    listed.add(flow.identity);
    const row = owned.get(flow.identity);
    if (!row) {
      plan.flowCreates.push(flow);
      items.push(item("flow", flow.identity, [], false));
      continue;
    }
    const changes = flowChanges(row, flow);
    items.push(item("flow", flow.identity, changes));
    if (!changes.length) continue;
    plan.flowUpdates.push({ row, desired: flow, changes });
    if (row.status === "PUBLISHED") {
      issues.push(
        warning(
          `flows.${flow.index}`,
          `Flow '${flow.identity}' (${row.id}) is PUBLISHED: the change is saved, and customers keep opening the published version until you publish again (POST /flows/${row.id}/publish).`,
        ),
      );
    }
  }
  for (const [identity, row] of owned) {
    if (listed.has(identity)) continue;
    items.push({ type: "flow", key: identity, action: "delete" });
    const removal = removalOf(row, identity);
    if (removal.kind === "delete") plan.flowDeletes.push(row);
    if (removal.kind === "deprecate") plan.flowDeprecations.push(row);
    if (removal.issue) issues.push(removal.issue);
  }
  return { items, plan, issues };
}

/** A draft is deleted; a published flow is deprecated instead (customers may hold it); one being published can be neither yet. */
function removalOf(row: FlowRow, identity: string): { kind: "delete" | "deprecate" | "none"; issue?: ConfigIssue } {
  const name = `Flow '${identity}' (${row.id})`;
  if (row.metaStatus === "PUBLISHING") {
    return { kind: "none", issue: error("flows", `${name} is not in the document but is being published: wait for the publish to finish, then apply again.`) };
  }
  if (row.status === "PUBLISHED") {
    return {
      kind: "deprecate",
      issue: warning("flows", `${name} is not in the document and was published: apply deprecates it (no longer sendable) instead of deleting it.`),
    };
  }
  if (row.publishedVersion !== null) return { kind: "none", issue: error("flows", `${name} was published and is ${row.status}: it cannot be deleted.`) };
  return { kind: "delete" };
}

function automationDiff(entries: readonly AutomationEntry[], facts: ConfigFacts) {
  const rows = new Map(facts.automations.map((row) => [row.key, row]));
  const firstOf = new Map<string, number>();
  entries.forEach((entry, index) => (firstOf.has(entry.key) ? undefined : firstOf.set(entry.key, index)));
  const unique = entries.map((entry, index) => ({ entry, index })).filter(({ entry, index }) => firstOf.get(entry.key) === index);
  const kept = unique.filter(({ entry }) => rows.has(entry.key));
  const moved = movedIndexes(kept.map(({ entry }) => rows.get(entry.key)!.position));
  const movedKeys = new Set([...moved].map((i) => kept[i]!.entry.key));
  const items: DiffItem[] = [];
  const automationWrites: AutomationWrite[] = [];
  for (const { entry, index } of unique) {
    const row = rows.get(entry.key);
    const changes = row ? [...automationChanges(row, entry), ...(movedKeys.has(entry.key) ? ["order"] : [])] : [];
    items.push(item("automation", entry.key, changes, row !== undefined));
    automationWrites.push({ id: row?.id ?? null, entry, position: index, changes });
  }
  const listed = new Set(unique.map(({ entry }) => entry.key));
  const deleted = facts.automations.filter((row) => !listed.has(row.key));
  for (const row of deleted) items.push({ type: "automation", key: row.key, action: "delete" });
  return { items, plan: { automationWrites, automationDeletes: deleted.map((row) => row.id) } };
}
