import pc from "picocolors";
import type { Schema } from "@svc/sdk";

/** What the API answers (lib/api/schemas/config.ts), typed by the SDK. */
export type Issue = Schema<"ConfigIssue">;
type DiffItem = Schema<"ConfigDiffItem">;

type Out = (line: string) => void;

const MARK = { create: pc.green("+"), update: pc.yellow("~"), delete: pc.red("-") } as const;
const PAINT = { create: pc.green, update: pc.yellow, delete: pc.red } as const;

/** `+ create` green, `~ update` yellow (with the fields), `- delete` red; unchanged items counted, dimmed. */
export function printDiff(items: readonly DiffItem[], out: Out): void {
  for (const item of items) {
    if (item.action === "unchanged") continue;
    const fields = item.action === "update" && item.changes?.length ? pc.dim(` (${item.changes.join(", ")})`) : "";
    out(`  ${MARK[item.action]} ${PAINT[item.action](`${item.type} ${item.key}`)}${fields}`);
  }
  const unchanged = items.filter((item) => item.action === "unchanged").length;
  if (unchanged) out(pc.dim(`  = ${unchanged} unchanged`));
}

/** "2 to create, 1 to update, 5 unchanged." before an apply; "Applied: 2 created, ..." after one. */
export function summaryOf(items: readonly DiffItem[], applied: boolean): string {
  const count = (action: DiffItem["action"]) => items.filter((item) => item.action === action).length;
  const verbs = applied ? { create: "created", update: "updated", delete: "deleted" } : { create: "to create", update: "to update", delete: "to delete" };
  const parts = (["create", "update", "delete"] as const).filter((a) => count(a) > 0).map((a) => `${count(a)} ${verbs[a]}`);
  const unchanged = count("unchanged");
  if (!parts.length) return `${applied ? "Nothing to apply" : "No changes"}: ${unchanged} unchanged.`;
  return `${applied ? "Applied: " : ""}${parts.join(", ")}${unchanged ? `, ${unchanged} unchanged` : ""}.`;
}

/** Errors, then warnings, each with its dotted path. */
export function printIssues(issues: readonly Issue[], out: Out): void {
  for (const issue of issues) {
    const severity = issue.severity === "error" ? pc.red("error  ") : pc.yellow("warning");
    out(`  ${severity} ${pc.bold(issue.path || "(document)")}  ${issue.message}`);
  }
}

export function countErrors(issues: readonly Issue[]): number {
  return issues.filter((issue) => issue.severity === "error").length;
}
