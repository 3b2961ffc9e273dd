import type { ConfigIssue } from "@/lib/client/config";
import type { AutomationDraft } from "./draft";

/**
 * Where each issue shows in the builder. Issues come with dotted paths (docs/spec/decisions.md
 * "Config-as-code"): from `POST /config/validate` of the document with this automation changed
 * (`automations.3.steps.1.wait_reply.options.0.label`), or from the write endpoints' 422, relative
 * to the automation (`steps.1.wait_reply.options.0.label`). Both become the builder's field path,
 * and the field that path falls under (the nearest field the form draws) shows the message.
 */

export type Issue = Pick<ConfigIssue, "path" | "message" | "severity">;

export interface PlacedIssues {
  /** Field path → its issues, errors first. */
  byField: Map<string, Issue[]>;
  /** About this automation, but no field of the form holds it (the automation as a whole). */
  general: Issue[];
  /** About the rest of the document (another automation, the project): not this automation's. */
  elsewhere: Issue[];
}

const STEP_FIELDS: Record<string, readonly string[]> = {
  send_reply: ["text", "buttons"],
  delay: ["minutes"],
  wait_reply: ["timeout_hours", "options"],
  pause_replies: ["reason"],
  send_flow: ["flow", "body_text", "flow_cta", "header_text", "footer_text"],
  run_function: ["function", "result_mode", "variable_name", "reply_field"],
};

/** Every field path the builder draws for this draft (the same strings its fields ask `errorsAt` for). */
export function fieldPaths(draft: AutomationDraft): Set<string> {
  const paths = new Set(["key", "name", "active", "trigger", "trigger.type", "trigger.match_mode", "trigger.keywords", "steps"]);
  draft.steps.forEach(({ step }, i) => {
    paths.add(`steps.${i}`);
    for (const [kind, fields] of Object.entries(STEP_FIELDS)) {
      const value = step[kind as keyof typeof step];
      if (value === undefined) continue;
      for (const field of fields) paths.add(`steps.${i}.${kind}.${field}`);
    }
    step.send_reply?.buttons?.forEach((_, b) => {
      paths.add(`steps.${i}.send_reply.buttons.${b}.title`);
      paths.add(`steps.${i}.send_reply.buttons.${b}.id`);
    });
    step.wait_reply?.options?.forEach((_, o) => {
      for (const field of ["label", "id", "keywords", "matchMode"]) paths.add(`steps.${i}.wait_reply.options.${o}.${field}`);
    });
  });
  return paths;
}

/**
 * The issue's path relative to the automation: strips `automations.<index>.` when the issue is about
 * the automation at `index` of the document; null when it is about something else. With `index`
 * undefined the path is already relative (a write endpoint's 422).
 */
export function relativePath(path: string, index: number | null | undefined): string | null {
  if (index === undefined) return path;
  const match = /^automations\.(\d+)(?:\.(.*))?$/.exec(path);
  if (!match || index === null || Number(match[1]) !== index) return null;
  return match[2] ?? "";
}

/** The longest drawn field that `path` falls under ("steps.1.send_reply.buttons.0.title.x" → "…title"); "" when none does. */
export function nearestField(path: string, known: ReadonlySet<string>): string {
  const parts = path.split(".").filter(Boolean);
  for (let n = parts.length; n > 0; n -= 1) {
    const candidate = parts.slice(0, n).join(".");
    if (known.has(candidate)) return candidate;
  }
  return "";
}

const errorsFirst = (a: Issue, b: Issue) => (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1);

/** Each issue at its field (see the file's comment); `index` as in relativePath. */
export function placeIssues(issues: readonly Issue[], known: ReadonlySet<string>, index?: number | null): PlacedIssues {
  const placed: PlacedIssues = { byField: new Map(), general: [], elsewhere: [] };
  for (const issue of issues) {
    const relative = relativePath(issue.path ?? "", index);
    if (relative === null) {
      placed.elsewhere.push(issue);
      continue;
    }
    const field = nearestField(relative, known);
    if (!field) {
      placed.general.push(issue);
      continue;
    }
    placed.byField.set(field, [...(placed.byField.get(field) ?? []), issue].sort(errorsFirst));
  }
  return placed;
}

/** Whether any error sits at this path or under it (a step card says so when folded). */
export function hasErrorsUnder(placed: PlacedIssues, prefix: string): boolean {
  for (const [field, issues] of placed.byField) {
    if ((field === prefix || field.startsWith(`${prefix}.`)) && issues.some((issue) => issue.severity === "error")) return true;
  }
  return false;
}

export function errorCount(placed: PlacedIssues): number {
  let count = placed.general.filter((issue) => issue.severity === "error").length;
  for (const issues of placed.byField.values()) count += issues.filter((issue) => issue.severity === "error").length;
  return count;
}
