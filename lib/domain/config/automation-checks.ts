import { z } from "zod";
import { automationEntrySchema, type AutomationEntry } from "@/lib/domain/automations/definition";
import { automationReferenceErrors, documentFlowRefs, duplicateKeyMessage } from "./checks";
import { isConfigOwned } from "./desired";
import { error, fromZod, ordered, pathOf, type ConfigIssue } from "./issues";
import type { AutomationRow, ConfigFacts } from "./load";
import { MAX_CONFIG_AUTOMATIONS } from "./schema";
import { unpublishedFlowSteps } from "./warnings";

/**
 * The automations API's writes (POST and PATCH /automations, docs/api-decisions.md "Automations") are
 * judged as config validate judges the same entry in the project's exported document: the entry's
 * schema, a unique key, its references (the document would list the project's config-owned flows;
 * any project flow may be named by id), the cap, and the unpublished-flow warnings. The functions are
 * config validate's own; only the paths differ: relative to the automation (`steps.1.send_reply.text`).
 */
export type AutomationFacts = Pick<ConfigFacts, "flows" | "automations" | "functions">;

export interface JudgedAutomation {
  /** The entry to write, when it parsed. */
  entry: AutomationEntry | null;
  /** Where it goes (0-based config order); null: at the end (create) or where it is (change). */
  position: number | null;
  issues: ConfigIssue[];
}

export const KEY_IMMUTABLE =
  "An automation's key is its identity in the config document and cannot change here. To rename it, change the key in the document and apply it (POST /config/apply): that deletes this automation, with its runs, and creates one under the new key.";

const positionSchema = z.number().int().min(0);

/** POST /automations: `{key, name, trigger, steps, active?, position?}`. */
export function judgeAutomationCreate(body: Record<string, unknown>, facts: AutomationFacts): JudgedAutomation {
  const { position, ...fields } = body;
  const issues: ConfigIssue[] = [];
  if (facts.automations.length >= MAX_CONFIG_AUTOMATIONS) {
    issues.push(error("", `A project holds at most ${MAX_CONFIG_AUTOMATIONS} automations (the config document's cap): delete one first.`));
  }
  const placed = judgePosition(position, issues);
  const entry = judgeEntry(fields, facts, { replacing: null, references: true }, issues);
  return { entry, position: placed, issues: ordered(issues) };
}

/**
 * PATCH /automations/{id}: any of `{name, trigger, steps, active, position}` over the stored entry.
 * `key` may be sent only unchanged. References are judged when `steps` is sent: a stored step whose
 * function was switched off since must not keep the automation from being switched off.
 */
export function judgeAutomationChange(row: AutomationRow, body: Record<string, unknown>, facts: AutomationFacts): JudgedAutomation {
  const { position, key, ...fields } = body;
  const issues: ConfigIssue[] = [];
  if (key !== undefined && key !== row.key) issues.push(error("key", KEY_IMMUTABLE));
  const placed = judgePosition(position, issues);
  const merged = { key: row.key, name: row.name, trigger: row.trigger, steps: row.steps, active: row.active, ...fields };
  const entry = judgeEntry(merged, facts, { replacing: row.id, references: "steps" in fields }, issues);
  return { entry, position: placed, issues: ordered(issues) };
}

function judgePosition(value: unknown, issues: ConfigIssue[]): number | null {
  if (value === undefined) return null;
  const parsed = positionSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  issues.push(error("position", "position is the 0-based place in config order: an integer, 0 or more (past the end means last)."));
  return null;
}

function judgeEntry(
  fields: Record<string, unknown>,
  facts: AutomationFacts,
  options: { replacing: string | null; references: boolean },
  issues: ConfigIssue[],
): AutomationEntry | null {
  const parsed = automationEntrySchema.safeParse(fields);
  if (!parsed.success) {
    issues.push(...fromZod(parsed.error));
    return null;
  }
  const entry = parsed.data;
  const first = facts.automations.findIndex((row) => row.key === entry.key && row.id !== options.replacing);
  if (first >= 0) issues.push(error("key", duplicateKeyMessage(entry.key, first)));
  if (options.references) {
    // The exported document lists the config-owned flows: those are the keys a step may name.
    const owned = facts.flows.filter(isConfigOwned).map((row) => ({ key: row.configKey!, locale: row.locale }));
    const refs = documentFlowRefs(owned, facts);
    issues.push(...automationReferenceErrors(entry, refs, pathOf));
    const known = (ref: string) => refs.docKeys.has(ref) || facts.flows.some((row) => row.id === ref);
    issues.push(...unpublishedFlowSteps(entry, facts, known, pathOf));
  }
  return entry;
}
