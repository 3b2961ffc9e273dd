/**
 * A broadcast recipient's `parameters` → the `components` of its template send (pure). A map names
 * body variables ({"1": "Ana"} or {"first_name": "Ana"}) and a header text variable as
 * "header.<name>"; an array is already the send's components. The result is checked against the
 * template's shape by the same rules as POST /messages (templates/parameters.ts).
 */
import { checkTemplateParameters } from "@/lib/domain/templates/parameters";
import type { TemplateShape } from "@/lib/domain/templates/types";

export type RecipientParameters = Record<string, string | number> | Record<string, unknown>[];

const HEADER_PREFIX = "header.";

export function componentsFor(shape: TemplateShape, parameters: RecipientParameters | null | undefined): Record<string, unknown>[] | undefined {
  if (Array.isArray(parameters)) return parameters;
  const given = parameters ?? {};
  const named = shape.parameter_format === "NAMED";
  const text = (name: string, value: string | number | undefined) => ({
    type: "text",
    text: value === undefined ? "" : String(value),
    ...(named ? { parameter_name: name } : {}),
  });
  const components: Record<string, unknown>[] = [];
  if (shape.header_format === "TEXT" && shape.variables.header.length > 0) {
    components.push({ type: "header", parameters: shape.variables.header.map((name) => text(name, own(given, `${HEADER_PREFIX}${name}`))) });
  }
  if (shape.variables.body.length > 0) {
    components.push({ type: "body", parameters: shape.variables.body.map((name) => text(name, own(given, name))) });
  }
  return components.length > 0 ? components : undefined;
}

/** Why these parameters do not fit the template, as one sentence; null when they fit. */
export function parametersProblem(shape: TemplateShape, parameters: RecipientParameters | null | undefined): string | null {
  if (!Array.isArray(parameters) && parameters) {
    const known = new Set([...shape.variables.body, ...shape.variables.header.map((name) => `${HEADER_PREFIX}${name}`)]);
    const unknown = Object.keys(parameters).filter((key) => !known.has(key));
    if (unknown.length > 0) return `Unknown template variable${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}. ${variablesSentence(shape)}`;
    const missing = [...known].filter((key) => own(parameters, key) === undefined || String(own(parameters, key)).trim() === "");
    if (missing.length > 0) return `Missing template variable${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}.`;
  } else if (!parameters && (shape.variables.body.length > 0 || shape.variables.header.length > 0)) {
    return `The template has variables: ${variablesSentence(shape)}`;
  }
  const { issues } = checkTemplateParameters(shape, componentsFor(shape, parameters));
  const first = Object.entries(issues)[0];
  return first ? `${first[0]}: ${first[1][0]}` : null;
}

/** Own keys only: a NAMED variable may be called `constructor` or `__proto__`. */
function own(map: Record<string, string | number>, key: string): string | number | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

function variablesSentence(shape: TemplateShape): string {
  const names = [...shape.variables.body, ...shape.variables.header.map((name) => `${HEADER_PREFIX}${name}`)];
  return names.length > 0 ? `It takes ${names.join(", ")}.` : "It takes none.";
}
