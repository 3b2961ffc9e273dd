/**
 * A template create request judged whole, the same way on both sides: the wire schema's fields
 * (templateFieldSchemas, which lib/api/schemas/templates.ts builds TemplateCreateRequest from, so the
 * route wrapper's 400 says these words) and the component rules (validate.ts, which createTemplate answers
 * with). The template builder runs it before submitting, so what the server would refuse is shown on
 * its field first. Issues are keyed by request path, like the 400's `issues`.
 */
import { z } from "zod";
import { TEMPLATE_CATEGORIES, PARAMETER_FORMATS, type Issues, type TemplateShape } from "./types";
import { validateTemplateComponents } from "./validate";

export const TEMPLATE_NAME_RULE = "Required: lower-case letters, digits and _ only, like order_update.";
const TEMPLATE_LANGUAGE_RULE = "Required: the provider's language code, like en_US or pt_BR (2 to 10 characters).";
const TEMPLATE_CHANNEL_RULE = "Required: one of the project's own business messaging (PLATFORM_A) channels.";

/**
 * The request's own fields, with the words both sides show for each. Built by whoever asks, from its
 * `z`: the API's has OpenAPI metadata methods (lib/api/zod.ts), which a schema built before that
 * extension would lack.
 */
export function templateFieldSchemas(zod: typeof z) {
  return {
    channel_id: zod.string().min(1, TEMPLATE_CHANNEL_RULE).max(200, "At most 200 characters."),
    name: zod
      .string()
      .max(512, "At most 512 characters.")
      .regex(/^[a-z0-9_]+$/, TEMPLATE_NAME_RULE),
    language: zod.string().min(2, TEMPLATE_LANGUAGE_RULE).max(10, TEMPLATE_LANGUAGE_RULE),
  };
}

const TemplateFields = z.object({
  ...templateFieldSchemas(z),
  category: z.enum(TEMPLATE_CATEGORIES),
  parameter_format: z.enum(PARAMETER_FORMATS).optional(),
});

export type TemplateRequestInput = z.input<typeof TemplateFields> & { components: unknown[] };

/** Issues of a zod parse by dotted path, as the route wrapper (lib/api/route.ts parse) keys them. */
function issuesOf(error: z.ZodError): Issues {
  const issues: Issues = {};
  for (const issue of error.issues) (issues[issue.path.map(String).join(".")] ??= []).push(issue.message);
  return issues;
}

/** Why the name cannot be a template name, or undefined when it can: the builder says it as the name is typed. */
export function templateNameProblem(name: string): string | undefined {
  const parsed = TemplateFields.shape.name.safeParse(name);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

/**
 * Every issue the server would answer for this request, fields first, then components (the server
 * reports the components' only once the fields pass; this reports both at once). `shape` is null while
 * there are issues.
 */
export function validateTemplateRequest(input: TemplateRequestInput): { issues: Issues; shape: TemplateShape | null } {
  const fields = TemplateFields.safeParse(input);
  const issues = fields.success ? {} : issuesOf(fields.error);
  if (!fields.success && (issues.category || issues.parameter_format)) return { issues, shape: null };
  const components = validateTemplateComponents({ category: input.category, parameter_format: input.parameter_format, components: input.components });
  for (const [path, messages] of Object.entries(components.issues)) (issues[path] ??= []).push(...messages);
  return { issues, shape: Object.keys(issues).length === 0 ? components.shape : null };
}
