import type { BadgeTone } from "@/components/ui/badge";
import { isApiError } from "@/lib/client/api";
import { CONFIG_DIFF_ACTIONS, type ConfigDiffAction, type ConfigDiffItem, type ConfigDiffType, type ConfigIssue } from "@/lib/client/config";

/**
 * How a diff and its issues read on the Config page: items grouped by what applying would do, issues
 * split into errors (nothing can be applied) and warnings (applies, but read them).
 */

export interface DiffGroup {
  action: ConfigDiffAction;
  items: ConfigDiffItem[];
}

export const ACTION_COPY: Record<ConfigDiffAction, { label: string; planned: string; done: string; tone: BadgeTone }> = {
  create: { label: "Create", planned: "to create", done: "created", tone: "success" },
  update: { label: "Update", planned: "to update", done: "updated", tone: "warning" },
  delete: { label: "Delete", planned: "to delete", done: "deleted", tone: "danger" },
  unchanged: { label: "Unchanged", planned: "unchanged", done: "unchanged", tone: "neutral" },
};

export const TYPE_LABELS: Record<ConfigDiffType, string> = {
  flow: "Flow",
  automation: "Automation",
  webhook: "Webhook",
  project: "Project",
  business_agent: "Business agent",
  business_agent_connector: "Agent connector",
  business_agent_tool: "Agent tool",
};

/** Create, update, delete, unchanged (in that order, empty groups left out); items keep the server's order. */
export function groupDiff(items: readonly ConfigDiffItem[]): DiffGroup[] {
  return CONFIG_DIFF_ACTIONS.map((action) => ({ action, items: items.filter((item) => item.action === action) })).filter((group) => group.items.length > 0);
}

/** "1 to create, 2 unchanged" (planned) or "1 created, 2 unchanged" (done); "No changes" when nothing would move. */
export function diffHeadline(items: readonly ConfigDiffItem[], tense: "planned" | "done"): string {
  const groups = groupDiff(items);
  if (!groups.some((group) => group.action !== "unchanged")) return tense === "planned" ? "No changes" : "Nothing changed";
  return groups.map((group) => `${group.items.length} ${ACTION_COPY[group.action][tense]}`).join(", ");
}

export function splitIssues(issues: readonly ConfigIssue[]): { errors: ConfigIssue[]; warnings: ConfigIssue[] } {
  return { errors: issues.filter((issue) => issue.severity === "error"), warnings: issues.filter((issue) => issue.severity !== "error") };
}

/** Apply is offered once a diff was read for exactly this text and it has no error issue. */
export function canApply(result: { valid: boolean; issues: readonly ConfigIssue[] } | undefined, stale: boolean): boolean {
  return Boolean(result && !stale && result.valid && splitIssues(result.issues).errors.length === 0);
}

function isIssue(value: unknown): value is ConfigIssue {
  if (!value || typeof value !== "object") return false;
  const issue = value as Record<string, unknown>;
  return typeof issue.message === "string" && (issue.severity === "error" || issue.severity === "warning");
}

/**
 * The issues of a refused apply (422 config_invalid carries them in the error body), or of a 400
 * whose body lists them the same way; null for any other failure.
 */
export function issuesFromError(error: unknown): ConfigIssue[] | null {
  if (!isApiError(error)) return null;
  const listed = error.body?.issues;
  if (!Array.isArray(listed)) return null;
  const issues = listed.filter(isIssue).map((issue) => ({ ...issue, path: typeof issue.path === "string" ? issue.path : "" }));
  return issues.length ? issues : null;
}
