import type { AutomationEntry } from "@/lib/domain/automations/definition";
import type { FlowRow } from "@/lib/domain/flows/serialize";
import type { DesiredFlow } from "./desired";
import type { AutomationRow } from "./load";

/**
 * Comparison by value (docs/spec/decisions.md "Config-as-code": applying the same document twice gives
 * only `unchanged`): JSON values are equal when they hold the same data, whatever their key order
 * (jsonb columns reorder keys; json columns keep the author's).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => jsonEqual(item, other[i]));
  }
  const left = definedEntries(a as Record<string, unknown>);
  const right = definedEntries(b as Record<string, unknown>);
  if (left.length !== right.length) return false;
  const rightMap = new Map(right);
  return left.every(([key, value]) => rightMap.has(key) && jsonEqual(value, rightMap.get(key)));
}

/** A key holding undefined is a key that is not there, as in JSON. */
function definedEntries(value: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(value).filter(([, v]) => v !== undefined);
}

/** The fields of a flow that the document changes, by their document names. */
export function flowChanges(row: FlowRow, desired: DesiredFlow): string[] {
  const changes: string[] = [];
  if (row.name !== desired.name) changes.push("name");
  if (row.description !== desired.description) changes.push("description");
  if (row.runtimeMode !== desired.runtimeMode) changes.push("runtime_mode");
  if (row.dataExchangeUrl !== desired.dataExchangeUrl) changes.push("data_exchange_url");
  if ("draft" in desired.source) {
    if (row.sourceFlowJson !== null || !jsonEqual(row.draft, desired.source.draft)) changes.push("draft");
  } else if (row.draft !== null || !jsonEqual(row.sourceFlowJson, desired.source.flow_json)) {
    changes.push("flow_json");
  }
  return changes;
}

/** The fields of an automation the document changes; an omitted `active` keeps what is stored (PATCH /automations may have set it). */
export function automationChanges(row: AutomationRow, entry: AutomationEntry): string[] {
  const changes: string[] = [];
  if (row.name !== entry.name) changes.push("name");
  if (!jsonEqual(row.trigger, entry.trigger)) changes.push("trigger");
  if (!jsonEqual(row.steps, entry.steps)) changes.push("steps");
  if (entry.active !== undefined && entry.active !== row.active) changes.push("active");
  return changes;
}

/**
 * Which kept automations changed places relative to each other. Deleting or inserting one shifts the
 * positions of the rest without reordering them, so that is not a change; a real move is the fewest
 * entries outside the longest run that kept its old order (a longest increasing subsequence).
 * `oldRanks[i]` is the old position of the i-th kept automation in document order.
 */
export function movedIndexes(oldRanks: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous: number[] = new Array<number>(oldRanks.length).fill(-1);
  oldRanks.forEach((rank, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (oldRanks[tails[mid]!]! < rank) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1]!;
    tails[lo] = i;
  });
  const kept = new Set<number>();
  for (let i = tails.length ? tails[tails.length - 1]! : -1; i >= 0; i = previous[i]!) kept.add(i);
  return new Set(oldRanks.map((_, i) => i).filter((i) => !kept.has(i)));
}
