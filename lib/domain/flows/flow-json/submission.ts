import { optionIdsOf } from "./screens";
import type { FieldSchemaItem, FlowJson, SubmissionError } from "./types";

/**
 * A completion (the provider's nfm_reply `response_json`) checked against field_schema (docs/spec/decisions.md
 * "Flows", Completion). `submission` holds the schema's fields that came in, normalised when valid (numeric
 * strings become numbers, dates YYYY-MM-DD) and as sent when not; flow_token and any other key are dropped.
 */
export function validateSubmission(
  fieldSchema: FieldSchemaItem[],
  flowJson: FlowJson | null,
  response: Record<string, unknown>,
): { submission: Record<string, unknown>; errors: SubmissionError[] } {
  const submission: Record<string, unknown> = {};
  const errors: SubmissionError[] = [];
  for (const field of fieldSchema) {
    if (!Object.hasOwn(response, field.name)) {
      if (field.required) errors.push(required(field));
      continue;
    }
    const raw = response[field.name];
    submission[field.name] = raw;
    if (isEmpty(field, raw)) {
      if (field.required) errors.push(required(field));
      continue;
    }
    const checked = checkValue(field, raw, flowJson);
    if ("error" in checked) errors.push(checked.error);
    else submission[field.name] = checked.value;
  }
  return { submission, errors };
}

function required(field: FieldSchemaItem): SubmissionError {
  return { field: field.name, code: "REQUIRED", message: `${field.name} is required.` };
}

/** Nothing given. A required opt-in left unticked counts as missing: it is consent that was not given. */
function isEmpty(field: FieldSchemaItem, value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  return field.type === "optin" && field.required && value === false;
}

type Checked = { value: unknown } | { error: SubmissionError };

function invalid(field: FieldSchemaItem, code: SubmissionError["code"], message: string): Checked {
  return { error: { field: field.name, code, message } };
}

function checkValue(field: FieldSchemaItem, raw: unknown, flowJson: FlowJson | null): Checked {
  switch (field.type) {
    case "number": {
      const value = toNumber(raw);
      return value === null ? invalid(field, "INVALID_NUMBER", `${field.name} must be a number.`) : { value };
    }
    case "email":
      return typeof raw === "string" && EMAIL.test(raw.trim())
        ? { value: raw.trim() }
        : invalid(field, "INVALID_EMAIL", `${field.name} must be an email address.`);
    case "date": {
      const value = toDate(raw);
      return value === null ? invalid(field, "INVALID_DATE", `${field.name} must be a date (YYYY-MM-DD).`) : { value };
    }
    case "dropdown":
    case "radio":
    case "checkbox":
      return checkOption(field, raw, flowJson);
    case "optin":
      return typeof raw === "boolean" ? { value: raw } : invalid(field, "INVALID_OPTIN", `${field.name} must be true or false.`);
    case "text":
    case "textarea":
    case "phone":
      return typeof raw === "string" ? { value: raw } : invalid(field, "INVALID_TYPE", `${field.name} must be text.`);
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NUMERIC = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function toNumber(raw: unknown): number | null {
  if (typeof raw === "number") return Number.isFinite(raw) ? raw : null;
  if (typeof raw !== "string" || !NUMERIC.test(raw.trim())) return null;
  const value = Number(raw.trim());
  return Number.isFinite(value) ? value : null;
}

const DAY_MS = 86_400_000;

/**
 * YYYY-MM-DD that is a real calendar date. Older DatePicker versions send the picked day as epoch
 * milliseconds (a number or a digit string) instead: that is midnight in the customer's time zone, so
 * it lands within about half a day of UTC midnight of the picked date, and rounding to the nearest UTC
 * midnight recovers the date for every offset from UTC-12 to UTC+12 (an offset beyond that is a day off).
 */
function toDate(raw: unknown): string | null {
  if (typeof raw === "string" && /^\d{4}-\d{2}-\d{2}$/.test(raw)) {
    const [year, month, day] = raw.split("-").map(Number) as [number, number, number];
    const date = new Date(Date.UTC(year, month - 1, day));
    const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
    return real ? raw : null;
  }
  // Ten or more digits: a short number ("2024") is not a timestamp. Days before 1970 are negative.
  const ms = typeof raw === "number" ? raw : typeof raw === "string" && /^-?\d{10,16}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(ms) || Math.abs(ms) < 1e9) return null;
  const date = new Date(Math.round(ms / DAY_MS) * DAY_MS);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10);
}

/** Option ids come from the flow's static data-source; options bound to data cannot be listed, so any id passes. */
function checkOption(field: FieldSchemaItem, raw: unknown, flowJson: FlowJson | null): Checked {
  const ids = flowJson ? optionIdsOf(flowJson, field.name) : null;
  const known = (id: unknown) => typeof id === "string" && (ids === null || ids.includes(id));
  const choices = ids ? ` Choose from: ${ids.join(", ")}.` : "";
  if (field.type === "checkbox") {
    if (Array.isArray(raw) && raw.every(known)) return { value: raw };
    return invalid(field, "INVALID_OPTION", `${field.name} must be a list of option ids.${choices}`);
  }
  return known(raw) ? { value: raw } : invalid(field, "INVALID_OPTION", `${field.name} must be one of the option ids.${choices}`);
}
