/**
 * send_reply placeholders (docs/spec/decisions.md "Automations"): `{{contact.name}}`,
 * `{{contact.phone}}`, `{{message.text}}` and `{{vars.NAME}}` (a dotted path reaches into an object
 * a function stored: `{{vars.order.status}}`). Spaces inside the braces are allowed. A missing value
 * renders empty; an object or array renders as JSON. Any other `{{...}}` is left as written.
 */
export interface RenderScope {
  contact: { name: string | null; phone: string | null };
  message: { text: string | null };
  vars: Record<string, unknown>;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.]*)\s*\}\}/g;

function asText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

function pathValue(root: unknown, path: string[]): unknown {
  let current = root;
  for (const part of path) {
    if (current === null || typeof current !== "object" || !Object.prototype.hasOwnProperty.call(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

export function renderText(template: string, scope: RenderScope): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const [head, ...rest] = name.split(".");
    if (head === "vars" && rest.length > 0) return asText(pathValue(scope.vars, rest));
    if (name === "contact.name") return asText(scope.contact.name);
    if (name === "contact.phone") return asText(scope.contact.phone);
    if (name === "message.text") return asText(scope.message.text);
    return whole;
  });
}
