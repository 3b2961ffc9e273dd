import { isRecord } from "@/lib/simulator/http";

/**
 * The checks the provider makes when a message template is created, kept to what it refuses at once
 * (the rest is review work, templates-review.ts): name `^[a-z0-9_]+$` up to 512 characters, a
 * language code (`en`, `en_US`, `zh_HK`, ...), a category, an optional parameter_format, and
 * components: objects of the four kinds, one BODY with at most 1024 characters of text (text
 * required outside AUTHENTICATION, whose body is the provider's preset).
 */
const TEMPLATE_CATEGORIES: ReadonlySet<string> = new Set(["UTILITY", "MARKETING", "AUTHENTICATION"]);
const COMPONENT_TYPES: ReadonlySet<string> = new Set(["HEADER", "BODY", "FOOTER", "BUTTONS"]);
const PARAMETER_FORMATS: ReadonlySet<string> = new Set(["POSITIONAL", "NAMED"]);
const NAME = /^[a-z0-9_]+$/;
const MAX_NAME = 512;
const LANGUAGE = /^[a-z]{2,3}(_[A-Za-z0-9]{2,4})?$/;
const MAX_BODY = 1024;

interface TemplateInput {
  name: string;
  language: string;
  category: string;
  parameter_format: string | null;
  components: Record<string, unknown>[];
}

export type TemplateCheck = { ok: true; value: TemplateInput } | { ok: false; details: string };

/** Components as Graph takes them: a JSON array, or that array as a string (form bodies). */
function parseComponents(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return null;
  }
}

function componentsProblem(components: unknown, category: string): string | null {
  if (!Array.isArray(components) || components.length === 0) return "Param components must be a non-empty array.";
  let bodies = 0;
  for (const [index, component] of components.entries()) {
    if (!isRecord(component)) return `Param components[${index}] must be an object.`;
    const type = typeof component.type === "string" ? component.type.toUpperCase() : "";
    if (!COMPONENT_TYPES.has(type)) return `Param components[${index}]['type'] must be one of ${[...COMPONENT_TYPES].join(", ")}.`;
    if (type !== "BODY") continue;
    bodies += 1;
    const text = component.text;
    if (text !== undefined && typeof text !== "string") return `Param components[${index}]['text'] must be a string.`;
    if (category !== "AUTHENTICATION" && (typeof text !== "string" || text.trim() === "")) return `Param components[${index}]['text'] is required.`;
    if (typeof text === "string" && Array.from(text).length > MAX_BODY)
      return `Param components[${index}]['text'] must be at most ${MAX_BODY} characters long.`;
  }
  return bodies === 1 ? null : "Message template components must include exactly one BODY component.";
}

/** The create request's template, or the provider's wording of its first problem. */
export function checkTemplateInput(params: Record<string, unknown>): TemplateCheck {
  const { name, language, category } = params;
  if (typeof name !== "string" || !NAME.test(name) || name.length > MAX_NAME) {
    return { ok: false, details: `Param name must be 1 to ${MAX_NAME} characters: lowercase letters, digits and underscores only.` };
  }
  if (typeof language !== "string" || !LANGUAGE.test(language))
    return { ok: false, details: "Param language must be a supported language code, such as en or en_US." };
  if (typeof category !== "string" || !TEMPLATE_CATEGORIES.has(category)) {
    return { ok: false, details: `Param category must be one of ${[...TEMPLATE_CATEGORIES].join(", ")}.` };
  }
  const format = params.parameter_format;
  if (format !== undefined && (typeof format !== "string" || !PARAMETER_FORMATS.has(format.toUpperCase()))) {
    return { ok: false, details: "Param parameter_format must be POSITIONAL or NAMED." };
  }
  const components = parseComponents(params.components);
  const problem = componentsProblem(components, category);
  if (problem) return { ok: false, details: problem };
  return {
    ok: true,
    value: {
      name,
      language,
      category,
      parameter_format: typeof format === "string" ? format.toUpperCase() : null,
      components: components as Record<string, unknown>[],
    },
  };
}
