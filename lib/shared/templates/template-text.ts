/**
 * The text rules every template component shares (docs/spec/decisions.md "Templates"): variables
 * ({{1}}… in order, or named with parameter_format NAMED), their example values, and bounded texts.
 */
import { isRecord } from "@/lib/json";
import { addIssue, type Issues, type ParameterFormat, type TemplateCategory } from "./types";

export interface Ctx {
  issues: Issues;
  category: TemplateCategory;
  format: ParameterFormat;
}

export type Component = Record<string, unknown>;

export const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
export const POSITIONAL_NAME = /^\d+$/;
const NAMED_NAME = /^[a-z_][a-z0-9_]*$/;

/** The inside of every `{{...}}` in a text, in order of appearance. */
export function placeholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => match[1] ?? "");
}

/** A text's distinct variables in order of first appearance. */
export function variablesOf(text: unknown): string[] {
  return typeof text === "string" ? [...new Set(placeholders(text))] : [];
}

/**
 * A text's variables, each well formed and of the template's parameter_format; positional ones
 * numbered in order from {{1}} (a number may repeat). Returns the distinct usable names.
 */
export function checkVariables(ctx: Ctx, path: string, text: string): string[] {
  const names: string[] = [];
  let orderReported = false;
  for (const name of placeholders(text)) {
    if (POSITIONAL_NAME.test(name)) {
      if (ctx.format === "NAMED") {
        addIssue(ctx.issues, path, `{{${name}}} is positional but parameter_format is NAMED: name it, like {{first_name}}.`);
        continue;
      }
      const expected = names.length + 1;
      if (!names.includes(name) && Number(name) !== expected && !orderReported) {
        addIssue(ctx.issues, path, `Number the variables in order from {{1}}: found {{${name}}} where {{${expected}}} was expected.`);
        orderReported = true;
      }
    } else if (NAMED_NAME.test(name)) {
      if (ctx.format === "POSITIONAL") {
        addIssue(ctx.issues, path, `{{${name}}} is a named variable: set parameter_format to NAMED, or number the variables {{1}}, {{2}}, … in order.`);
        continue;
      }
    } else {
      addIssue(ctx.issues, path, `{{${name}}} is not a variable: write {{1}}, {{2}}, … or, with parameter_format NAMED, lower-case names like {{first_name}}.`);
      continue;
    }
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** A component with variables needs one sample per variable, in the form of its parameter_format. */
export function checkExamples(ctx: Ctx, path: string, component: Component, names: string[], kind: "header" | "body") {
  if (names.length === 0) return;
  const key = ctx.format === "NAMED" ? `${kind}_text_named_params` : `${kind}_text`;
  const value = isRecord(component.example) ? component.example[key] : undefined;
  const list = names.map((name) => `{{${name}}}`).join(", ");
  if (value === undefined) {
    return addIssue(ctx.issues, `${path}.example`, `Required: the ${kind} has variables (${list}); give each a sample value (example.${key}).`);
  }
  if (ctx.format === "NAMED") return checkNamedExamples(ctx, `${path}.example.${key}`, value, names);
  const values: unknown = kind === "body" ? (Array.isArray(value) && value.length === 1 ? value[0] : undefined) : value;
  if (Array.isArray(values) && values.length === names.length && values.every(nonBlank)) return;
  const form = kind === "body" ? `[[${names.map(() => '"…"').join(", ")}]]` : '["…"]';
  const subject = names.length > 1 ? `each variable (${list})` : list;
  addIssue(ctx.issues, `${path}.example.${key}`, `Give ${subject} a non-empty sample value (example.${key}: ${form}).`);
}

function checkNamedExamples(ctx: Ctx, path: string, value: unknown, names: string[]) {
  if (!Array.isArray(value)) return addIssue(ctx.issues, path, "Give a list of {param_name, example}, one per variable.");
  const given = new Set<string>();
  value.forEach((entry: unknown, k) => {
    if (!isRecord(entry) || typeof entry.param_name !== "string") return addIssue(ctx.issues, `${path}.${k}`, "Each sample is {param_name, example}.");
    if (!names.includes(entry.param_name)) {
      addIssue(ctx.issues, `${path}.${k}.param_name`, `The text has no {{${entry.param_name}}}; its variables are ${names.join(", ")}.`);
    }
    if (!nonBlank(entry.example)) addIssue(ctx.issues, `${path}.${k}.example`, "Give a non-empty sample value.");
    given.add(entry.param_name);
  });
  const missing = names.filter((name) => !given.has(name));
  if (missing.length > 0) addIssue(ctx.issues, path, `Missing samples for ${missing.map((name) => `{{${name}}}`).join(", ")}.`);
}

/** A required (or, when given, optional) text within its limit; length counts characters as a person does. */
export function checkText(ctx: Ctx, path: string, value: unknown, what: string, max: number, required = true): string | undefined {
  if (value === undefined && !required) return undefined;
  if (!nonBlank(value)) return void addIssue(ctx.issues, path, `Required: ${what.replace(/^The /, "the ")} text.`);
  const length = [...value].length;
  if (length > max) addIssue(ctx.issues, path, `${what} is ${length} characters; the limit is ${max}.`);
  return value;
}

export function nonBlank(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === "https:" || protocol === "http:";
}

export function lower(value: unknown): string | undefined {
  return typeof value === "string" ? value.toLowerCase() : undefined;
}

export function oneOf<T extends string>(values: readonly T[], value: string | undefined): T | undefined {
  return values.find((candidate) => candidate === value);
}
