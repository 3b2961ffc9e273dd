/**
 * A broadcast recipient's `parameters` → the `components` of its template send (pure). A map names
 * body variables ({"1": "Ana"} or {"first_name": "Ana"}) and a header text variable as
 * "header.<name>"; an array is already the send's components. The result is checked against the
 * template's shape by the same rules as POST /messages (lib/shared/templates/parameters.ts). Shared:
 * the server judges each recipient with it, the dashboard each CSV row before the upload.
 */
import { checkTemplateParameters } from "@/lib/shared/templates/parameters";
import type { TemplateShape } from "@/lib/shared/templates/types";

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

/** Why a recipient's parameters do not fit the template, and the variables (parameter keys) at fault, when known. */
export interface ParametersFault {
  message: string;
  keys: string[];
}

/** The keys a map of parameters gives the template's variables by: body names, then "header.<name>". */
export function variableKeys(shape: TemplateShape): string[] {
  return [...shape.variables.body, ...shape.variables.header.map((name) => `${HEADER_PREFIX}${name}`)];
}

/** Why these parameters do not fit the template, as one sentence with the keys it is about; null when they fit. */
export function parametersFault(shape: TemplateShape, parameters: RecipientParameters | null | undefined): ParametersFault | null {
  const known = variableKeys(shape);
  if (!Array.isArray(parameters) && parameters) {
    const unknown = Object.keys(parameters).filter((key) => !known.includes(key));
    if (unknown.length > 0) {
      return { message: `Unknown template variable${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}. ${variablesSentence(shape)}`, keys: unknown };
    }
    const missing = known.filter((key) => own(parameters, key) === undefined || String(own(parameters, key)).trim() === "");
    if (missing.length > 0) return { message: `Missing template variable${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}.`, keys: missing };
  } else if (!parameters && known.length > 0) {
    return { message: `The template has variables and this recipient gives none. ${variablesSentence(shape)}`, keys: known };
  }
  const { issues } = checkTemplateParameters(shape, componentsFor(shape, parameters));
  const first = Object.entries(issues)[0];
  return first ? { message: `${first[0]}: ${first[1][0]}`, keys: [] } : null;
}

/** Why these parameters do not fit the template, as one sentence; null when they fit. */
export function parametersProblem(shape: TemplateShape, parameters: RecipientParameters | null | undefined): string | null {
  return parametersFault(shape, parameters)?.message ?? null;
}

/** Own keys only: a NAMED variable may be called `constructor` or `__proto__`. */
function own(map: Record<string, string | number>, key: string): string | number | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

export function variablesSentence(shape: TemplateShape): string {
  const names = variableKeys(shape);
  return names.length > 0 ? `It takes ${names.join(", ")}.` : "It takes none.";
}
