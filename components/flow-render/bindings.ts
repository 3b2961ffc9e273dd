/**
 * Flow JSON's dynamic values: `${data.x}` reads the screen's data (what the previous screen's navigate
 * payload or the data endpoint sent), `${form.x}` reads what the customer entered on this screen. A
 * string that is exactly one reference takes the referenced value as is (an array of option ids, a
 * boolean opt-in); references inside longer text are replaced by their text. Global references
 * (`${screen.OTHER.form.x}`) need the other screens' state, which a single-screen view does not have:
 * they read as empty.
 */

export type FormValue = string | string[] | boolean;

export interface BindingScope {
  data: Record<string, unknown>;
  form: Record<string, FormValue>;
}

const WHOLE = /^\$\{\s*(data|form)\.([A-Za-z0-9_.]+)\s*\}$/;
const INNER = /\$\{\s*(data|form)\.([A-Za-z0-9_.]+)\s*\}/g;
const GLOBAL = /\$\{\s*screen\.[^}]*\}/g;

function lookup(root: Record<string, unknown>, dotted: string): unknown {
  let current: unknown = root;
  for (const key of dotted.split(".")) {
    if (!current || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function scopeValue(scope: BindingScope, source: string, path: string): unknown {
  return lookup(source === "data" ? scope.data : scope.form, path);
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(asText).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** One value with its references replaced; objects and arrays are walked. */
export function resolveValue(value: unknown, scope: BindingScope): unknown {
  if (typeof value === "string") {
    const whole = WHOLE.exec(value);
    if (whole) return scopeValue(scope, whole[1]!, whole[2]!);
    return value.replace(INNER, (_match, source: string, path: string) => asText(scopeValue(scope, source, path))).replace(GLOBAL, "");
  }
  if (Array.isArray(value)) return value.map((item) => resolveValue(item, scope));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveValue(item, scope)]));
  }
  return value;
}

/** Text to show: the resolved value as a string ("" for nothing). */
export function resolveText(value: unknown, scope: BindingScope): string {
  return asText(resolveValue(value, scope));
}

const isEmptyFormValue = (value: unknown) => value === undefined || value === "" || (Array.isArray(value) && value.length === 0);

/**
 * An action's payload as the customer's phone would send it. A key bound to a form field the customer
 * left empty is left out (an optional field not filled in is absent, not ""), so the submission's
 * checks (number, email, date) judge only what was entered.
 */
export function resolvePayload(payload: unknown, scope: BindingScope): Record<string, unknown> {
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(payload)) {
    const whole = typeof raw === "string" ? WHOLE.exec(raw) : null;
    const value = resolveValue(raw, scope);
    if (whole?.[1] === "form" && isEmptyFormValue(value)) continue;
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * The screen's declared data (`{"name": {"type": "string", "__example__": "Ana"}}`) as example values:
 * what a preview shows for `${data.name}` when nothing was passed in.
 */
export function exampleData(declared: unknown): Record<string, unknown> {
  if (!declared || typeof declared !== "object" || Array.isArray(declared)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(declared)) {
    if (schema && typeof schema === "object" && "__example__" in schema) out[key] = (schema as { __example__: unknown }).__example__;
  }
  return out;
}
