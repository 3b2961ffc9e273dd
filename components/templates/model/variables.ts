import { PLACEHOLDER, variablesOf } from "@/lib/shared/templates/template-text";
import type { ParameterFormat } from "./vocabulary";

/**
 * Variables in template text (docs/spec/decisions.md "Templates"): `{{1}}`, `{{2}}`, … in order, or
 * named `{{first_name}}` with parameter_format NAMED, found as the server finds them
 * (lib/shared/templates). The builder asks for an example value each and draws the preview.
 */

const POSITIONAL = /^\d+$/;
const NAMED = /^[a-z_][a-z0-9_]*$/;

/** A text's distinct variables, in order of first appearance (`{{1}}` → "1"), ill-formed ones included. */
export function variablesIn(text: string): string[] {
  return variablesOf(text);
}

/** The next positional variable: one past the highest number already used. */
export function nextPositional(text: string): string {
  const numbers = variablesIn(text)
    .filter((name) => POSITIONAL.test(name))
    .map(Number);
  return String(numbers.length ? Math.max(...numbers) + 1 : 1);
}

/** Why a name cannot be a NAMED variable, or null when it can. */
export function namedVariableProblem(name: string): string | null {
  if (!name) return "Give the variable a name.";
  if (!NAMED.test(name)) return "Lower-case letters, digits and _, starting with a letter or _ (like first_name).";
  return null;
}

/** The token the "Insert variable" button adds: the next number, or `{{name}}` with NAMED. */
export function variableToken(format: ParameterFormat, text: string, name: string): string {
  return `{{${format === "NAMED" ? name : nextPositional(text)}}}`;
}

/** `token` put in place of the selection [start, end) of `text`, and where the caret goes after it. */
export function insertAt(text: string, start: number, end: number, token: string): { text: string; caret: number } {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: text.slice(0, from) + token + text.slice(to), caret: from + token.length };
}

export interface TextSegment {
  text: string;
  /** The variable's name when this segment stands for `{{name}}`. */
  variable?: string;
  /** True when the variable has no example yet, so the preview shows it as `{{name}}`. */
  missing?: boolean;
}

/** The text as the customer would read it: each variable replaced by its example value (or left as `{{name}}` without one). */
export function fillVariables(text: string, examples: Readonly<Record<string, string>>): TextSegment[] {
  const segments: TextSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const index = match.index ?? 0;
    if (index > last) segments.push({ text: text.slice(last, index) });
    const name = match[1] ?? "";
    const value = examples[name]?.trim() ? examples[name] : undefined;
    segments.push(value === undefined ? { text: match[0], variable: name, missing: true } : { text: value, variable: name });
    last = index + match[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last) });
  return segments;
}

/** The segments joined back into plain text (what tests and aria labels read). */
export function segmentsText(segments: readonly TextSegment[]): string {
  return segments.map((segment) => segment.text).join("");
}
