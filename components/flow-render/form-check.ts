import type { FormValue } from "./bindings";

/**
 * What the customer's phone checks before a Footer press goes anywhere: required inputs, character
 * limits, the shape of emails, numbers and phone numbers, and how many checkboxes are ticked. The
 * server checks submissions again (against field_schema); this only spares the tester a rejected one.
 */
export interface FieldRule {
  name: string;
  kind: "text" | "textarea" | "date" | "single" | "multi" | "optin";
  required: boolean;
  inputType?: string;
  minChars?: number;
  maxChars?: number;
  minSelected?: number;
  maxSelected?: number;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ()-]{6,20}$/;

function checkText(rule: FieldRule, text: string): string | null {
  if (!text) return rule.required ? "Required" : null;
  if (rule.minChars !== undefined && text.length < rule.minChars) return `At least ${rule.minChars} characters`;
  if (rule.maxChars !== undefined && text.length > rule.maxChars) return `At most ${rule.maxChars} characters`;
  if (rule.inputType === "email" && !EMAIL.test(text)) return "Enter a valid email address";
  if (rule.inputType === "number" && !Number.isFinite(Number(text))) return "Enter a number";
  if (rule.inputType === "phone" && !PHONE.test(text)) return "Enter a valid phone number";
  return null;
}

function checkMulti(rule: FieldRule, picked: string[]): string | null {
  if (picked.length === 0) return rule.required ? "Required" : null;
  if (rule.minSelected !== undefined && picked.length < rule.minSelected) return `Pick at least ${rule.minSelected}`;
  if (rule.maxSelected !== undefined && picked.length > rule.maxSelected) return `Pick at most ${rule.maxSelected}`;
  return null;
}

/** The problem with one field's value, or null when it may be sent. */
function checkField(rule: FieldRule, value: FormValue | undefined): string | null {
  if (rule.kind === "optin") return rule.required && value !== true ? "Required" : null;
  if (rule.kind === "multi") return checkMulti(rule, Array.isArray(value) ? value : []);
  const text = typeof value === "string" ? value.trim() : "";
  if (rule.kind === "single" || rule.kind === "date") return !text && rule.required ? "Required" : null;
  return checkText(rule, text);
}

/** Field name → problem, for every field with one (empty: the form may be sent). */
export function checkForm(rules: FieldRule[], values: Record<string, FormValue>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const rule of rules) {
    const problem = checkField(rule, values[rule.name]);
    if (problem) errors[rule.name] = problem;
  }
  return errors;
}
