import { isApiError } from "@/lib/client/api";
import { issuesFromError } from "@/components/config/model/diff";
import type { Issue } from "./issue-fields";

/**
 * A refused write in plain words, with the next step (issue 34: every error says what to do next).
 * `issues` are the 422 config_invalid issues, relative to the automation, for the builder to place.
 */
export interface WriteFailure {
  message: string;
  issues: Issue[] | null;
}

function isIssue(value: unknown): value is Issue {
  if (!value || typeof value !== "object") return false;
  const issue = value as Record<string, unknown>;
  return typeof issue.message === "string" && (issue.severity === "error" || issue.severity === "warning");
}

/**
 * The ConfigIssue list of a 422 config_invalid: `config_issues` (the automations API and config apply
 * put the list there, beside the usual `issues` map), else an `issues` list as the Config page reads it.
 */
export function configIssuesOf(error: unknown): Issue[] | null {
  if (!isApiError(error)) return null;
  const listed = (error.body as Record<string, unknown> | undefined)?.config_issues;
  if (Array.isArray(listed)) {
    const issues = listed.filter(isIssue).map((issue) => ({ ...issue, path: typeof issue.path === "string" ? issue.path : "" }));
    if (issues.length) return issues;
  }
  return issuesFromError(error);
}

export function writeFailure(error: unknown, action: string): WriteFailure {
  const issues = configIssuesOf(error);
  if (issues) {
    const errors = issues.filter((issue) => issue.severity === "error").length;
    return {
      message: `Not ${action}: ${errors || issues.length} ${errors === 1 ? "problem" : "problems"} to fix, marked on the fields. Fix them, then try again.`,
      issues,
    };
  }
  if (!isApiError(error)) return { message: `Not ${action}: ${error instanceof Error ? error.message : "something went wrong"}. Try again.`, issues: null };
  if (error.status === 0) return { message: `Not ${action}: svc could not be reached. Check your connection, then try again.`, issues: null };
  if (error.status === 403) return { message: `Not ${action}: your role can read automations but not change them. Ask a developer or an admin.`, issues: null };
  if (error.status === 404) {
    return {
      message: `Not ${action}: this automation no longer exists (a config apply may have removed it). Go back to the list and reload it.`,
      issues: null,
    };
  }
  if (error.status >= 500) return { message: `Not ${action}: something went wrong on our side. Nothing changed; try again in a moment.`, issues: null };
  return { message: `Not ${action}: ${error.message}`, issues: null };
}
