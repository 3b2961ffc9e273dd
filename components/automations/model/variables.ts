import type { AutomationStep } from "@/lib/client/automations";

/**
 * The placeholders a step's text can use (docs/spec/decisions.md "Automations": `{{contact.name}}`,
 * `{{contact.phone}}`, `{{message.text}}`, `{{vars.NAME}}`), with the `vars.*` the steps before it
 * set: a wait_reply sets reply_text, reply_option and reply_message_id (lib/domain/automations/
 * evaluate.ts); a run_function in `variables` mode sets its variable_name (an object result without a
 * name merges its own keys, which only the function knows).
 */
export interface VariableSuggestion {
  /** What goes between the braces: "contact.name", "vars.reply_option". */
  name: string;
  /** What it holds, in plain words. */
  description: string;
  /** The 0-based step that sets it; absent for the message's own. */
  fromStep?: number;
}

const ALWAYS: VariableSuggestion[] = [
  { name: "contact.name", description: "The customer's profile name (empty when unknown)" },
  { name: "contact.phone", description: "The customer's number" },
  { name: "message.text", description: "The text of the message that started the run" },
];

const WAIT_REPLY_VARS: Array<Omit<VariableSuggestion, "fromStep">> = [
  { name: "vars.reply_text", description: "The text of the customer's answer" },
  { name: "vars.reply_option", description: "The id of the option the answer matched (empty when none did)" },
  { name: "vars.reply_message_id", description: "The id of the answer's message" },
];

function setBy(step: AutomationStep, index: number): VariableSuggestion[] {
  if (step.wait_reply) return WAIT_REPLY_VARS.map((variable) => ({ ...variable, fromStep: index }));
  const fn = step.run_function;
  if (fn?.result_mode === "variables" && fn.variable_name?.trim()) {
    return [{ name: `vars.${fn.variable_name.trim()}`, description: `What function ${fn.function || "(not picked yet)"} returned`, fromStep: index }];
  }
  return [];
}

/** The suggestions for the step at `index`: the message's own, then what earlier steps set (latest setter wins). */
export function variablesAt(steps: readonly AutomationStep[], index: number): VariableSuggestion[] {
  const byName = new Map<string, VariableSuggestion>();
  for (const variable of ALWAYS) byName.set(variable.name, variable);
  steps.slice(0, Math.max(0, index)).forEach((step, i) => {
    for (const variable of setBy(step, i)) byName.set(variable.name, variable);
  });
  return [...byName.values()];
}

/** Whether an earlier run_function merges an object's keys into vars (their names are the function's to say). */
export function mergesUnknownVars(steps: readonly AutomationStep[], index: number): boolean {
  return steps.slice(0, Math.max(0, index)).some((step) => step.run_function?.result_mode === "variables" && !step.run_function.variable_name?.trim());
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.]*)\s*\}\}/g;

/**
 * Placeholders in `text` nothing sets before this step: `{{vars.x}}` renders empty when missing, so a
 * typo is silent at run time; the builder says so while editing. `{{vars.a.b}}` counts as `vars.a`.
 */
export function unknownPlaceholders(text: string, steps: readonly AutomationStep[], index: number): string[] {
  if (mergesUnknownVars(steps, index)) return [];
  const known = new Set(variablesAt(steps, index).map((variable) => variable.name));
  const unknown = new Set<string>();
  for (const [, name] of text.matchAll(PLACEHOLDER)) {
    if (!name) continue;
    const [head, first] = name.split(".");
    const base = head === "vars" && first ? `vars.${first}` : name;
    if (!known.has(base)) unknown.add(name);
  }
  return [...unknown];
}

/** `text` with `{{name}}` put in at [start, end) (the selection), and where the caret goes after it. */
export function insertPlaceholder(text: string, name: string, start: number, end = start): { text: string; caret: number } {
  const token = `{{${name}}}`;
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: text.slice(0, from) + token + text.slice(to), caret: from + token.length };
}
