import type { ConfigDocument } from "./schema";
import type { AgentEntry } from "./agent-entry";
import { flowIdentity, isConfigOwned, localeOf, rowIdentity } from "./desired";
import { error, pathOf, type ConfigIssue } from "./issues";
import type { ConfigFacts } from "./load";

/**
 * The `business_agents` checks zod cannot make (docs/spec/decisions.md "Business agents"): one entry
 * per channel, connector keys unique per agent, tool names unique per agent (the API's connectors'
 * tools included), skill names unique and their tools known after the apply. Pure.
 */
export function agentErrors(doc: ConfigDocument, facts: ConfigFacts): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const channels = new Map<string, number>();
  (doc.business_agents ?? []).forEach((entry, a) => {
    const at = (...segments: Array<string | number>) => pathOf("business_agents", a, ...segments);
    const first = channels.get(entry.channel_id);
    if (first !== undefined) issues.push(error(at("channel_id"), `Channel ${entry.channel_id} is already business_agents.${first}: one agent per channel.`));
    else channels.set(entry.channel_id, a);
    if (entry.settings && Object.hasOwn(entry.settings, "channel_id")) {
      issues.push(error(at("settings", "channel_id"), "channel_id is the entry's, not a setting: move it out of settings."));
    }
    issues.push(...connectorKeyErrors(entry, at), ...toolNameErrors(entry, facts, at), ...skillErrors(entry, facts, at));
  });
  return issues;
}

type At = (...segments: Array<string | number>) => string;

function connectorKeyErrors(entry: AgentEntry, at: At): ConfigIssue[] {
  const seen = new Map<string, number>();
  const issues: ConfigIssue[] = [];
  entry.connectors.forEach((connector, c) => {
    const first = seen.get(connector.key);
    if (first === undefined) seen.set(connector.key, c);
    else issues.push(error(at("connectors", c, "key"), `Connector key '${connector.key}' is already connectors.${first}: keys are unique per agent.`));
  });
  return issues;
}

/** Tools of the agent's connectors made through the API (no config key): config leaves them, so their names stay taken. */
function apiOwnedToolNames(entry: AgentEntry, facts: ConfigFacts): Set<string> {
  const agent = facts.agents.agents.find((row) => row.channelId === entry.channel_id);
  if (!agent) return new Set();
  const apiConnectors = new Set(facts.agents.connectors.filter((c) => c.businessAgentId === agent.id && c.configKey === null).map((c) => c.id));
  return new Set(facts.agents.tools.filter((t) => apiConnectors.has(t.connectorId)).map((t) => t.name));
}

function toolNameErrors(entry: AgentEntry, facts: ConfigFacts, at: At): ConfigIssue[] {
  const taken = apiOwnedToolNames(entry, facts);
  const seen = new Map<string, string>();
  const issues: ConfigIssue[] = [];
  entry.connectors.forEach((connector, c) => {
    connector.tools.forEach((tool, t) => {
      const path = at("connectors", c, "tools", t, "name");
      const first = seen.get(tool.name);
      if (first !== undefined) issues.push(error(path, `Tool name '${tool.name}' is already ${first}: names are unique per agent.`));
      else if (taken.has(tool.name)) {
        issues.push(error(path, `The agent already has a tool '${tool.name}' on a connector made through the API: choose another name, or delete that tool.`));
      } else seen.set(tool.name, pathOf("connectors", c, "tools", t));
    });
  });
  return issues;
}

/** Skills name tools of the agent as it will be: the document's tools and the API connectors' tools. */
function skillErrors(entry: AgentEntry, facts: ConfigFacts, at: At): ConfigIssue[] {
  const known = new Set([...apiOwnedToolNames(entry, facts), ...entry.connectors.flatMap((c) => c.tools.map((t) => t.name))]);
  const issues: ConfigIssue[] = [];
  if (entry.skills) {
    const seen = new Set<string>();
    entry.skills.forEach((skill, s) => {
      if (seen.has(skill.name)) issues.push(error(at("skills", s, "name"), `Another skill is named '${skill.name}': names are unique per agent.`));
      seen.add(skill.name);
      if (skill.tool && !known.has(skill.tool)) issues.push(error(at("skills", s, "tool"), `No tool named '${skill.tool}' on this agent after the apply.`));
    });
    return issues;
  }
  const agent = facts.agents.agents.find((row) => row.channelId === entry.channel_id);
  for (const skill of agent?.skills ?? []) {
    const tool = typeof skill.tool === "string" ? skill.tool : null;
    if (tool && !known.has(tool)) {
      issues.push(
        error(
          at("connectors"),
          `The agent's stored skill '${String(skill.name)}' uses tool '${tool}', which this apply removes: give skills too, or keep the tool.`,
        ),
      );
    }
  }
  return issues;
}

/**
 * A FLOW tool's backing_flow_id: a flow id, or a flow key of the project (its default-locale entry).
 * Either way the flow must stay after this apply; a flow that only the document creates is not
 * published yet (apply never publishes), so it cannot back a tool in the same apply.
 */
export function flowBackingRef(ref: string, doc: ConfigDocument, facts: ConfigFacts): { id: string } | { problem: string } {
  const docIdentities = new Set(doc.flows.map((f) => flowIdentity(f.key, localeOf(f.locale) ?? null)));
  const byId = facts.flows.find((row) => row.id === ref);
  const row = byId ?? facts.flows.find((r) => isConfigOwned(r) && r.configKey === ref && r.locale === null);
  if (!row) {
    if (doc.flows.some((f) => f.key === ref) || facts.flows.some((r) => isConfigOwned(r) && r.configKey === ref)) {
      return {
        problem: `Flow '${ref}' has no published default-locale entry in this project (apply never publishes): apply the flow, publish it, then name it here (or name a variant by id).`,
      };
    }
    return { id: ref }; // unknown: tool-backing.ts says so in its own words
  }
  if (isConfigOwned(row) && !docIdentities.has(rowIdentity(row))) {
    return { problem: `Flow ${row.id} ('${rowIdentity(row)}') is not in the document's flows, so this apply removes it: keep it, or name another flow.` };
  }
  return { id: row.id };
}
