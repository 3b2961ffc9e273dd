import type { z } from "zod";
import { SvcError } from "@/lib/errors";

/**
 * ConfigIssue (docs/spec/service-spec.md "Config"): where, what, how bad. Paths are dotted from the
 * document's root (`automations.2.steps.0.send_reply.text`); "" is the document itself.
 */
type ConfigSeverity = "error" | "warning";

export interface ConfigIssue {
  path: string;
  message: string;
  severity: ConfigSeverity;
}

export function pathOf(...segments: Array<string | number>): string {
  return segments.map(String).join(".");
}

export const error = (path: string, message: string): ConfigIssue => ({ path, message, severity: "error" });
export const warning = (path: string, message: string): ConfigIssue => ({ path, message, severity: "warning" });

export function hasErrors(issues: readonly ConfigIssue[]): boolean {
  return issues.some((issue) => issue.severity === "error");
}

/** Errors first, each severity in the order found (document order). */
export function ordered(issues: readonly ConfigIssue[]): ConfigIssue[] {
  return [...issues.filter((i) => i.severity === "error"), ...issues.filter((i) => i.severity === "warning")];
}

/** zod's issues as ConfigIssues: an unknown key is named in the path, one issue per key. */
export function fromZod(failure: z.ZodError): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of failure.issues) {
    const base = issue.path.map((segment) => (typeof segment === "symbol" ? segment.toString() : segment));
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) out.push(error(pathOf(...base, key), `Unknown key '${key}'.`));
    } else {
      out.push(error(pathOf(...base), issue.message));
    }
  }
  return out;
}

/** An RFC 6901 pointer (a flow finding's path) as dotted segments under `prefix`. */
export function pointerPath(prefix: string, pointer: string): string {
  const segments = pointer
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  return segments.length ? pathOf(prefix, ...segments) : prefix;
}

/** The error map other 400/422s carry (`issues` = {dotted.path: [messages]}), from the errors among ConfigIssues. */
function issueMap(issues: readonly ConfigIssue[], root = "document"): Record<string, string[]> {
  const map: Record<string, string[]> = Object.create(null);
  for (const issue of issues) if (issue.severity === "error") (map[issue.path || root] ??= []).push(issue.message);
  return map;
}

/**
 * 422 config_invalid: nothing was written. `issues` is the usual error map; `config_issues` the
 * ConfigIssue list (warnings too), as POST /config/validate returns it.
 */
export function configInvalid(issues: readonly ConfigIssue[]): SvcError {
  const errors = issues.filter((i) => i.severity === "error").length;
  return new SvcError(
    "config_invalid",
    `The config document has ${errors} error(s); nothing was applied. Fix them (POST /config/validate lists them) and apply again.`,
    {
      issues: issueMap(issues),
      config_issues: issues,
    },
  );
}

/**
 * The automations API's 422 (POST and PATCH /automations): config_invalid, the body config apply
 * refuses a document with, its paths relative to the automation ("" is the request body).
 */
export function automationInvalid(issues: readonly ConfigIssue[]): SvcError {
  const errors = issues.filter((i) => i.severity === "error").length;
  return new SvcError(
    "config_invalid",
    `The automation has ${errors} error(s), judged as POST /config/validate judges it in the config document; nothing was saved. Fix them and send it again.`,
    { issues: issueMap(issues, "body"), config_issues: issues },
  );
}
