import { randomInt } from "node:crypto";
import type { SimulatorContext } from "@/lib/simulator/context";
import { readParams, unknownObject } from "@/lib/simulator/flows";
import { bearerToken, graphError, invalidParameter, invalidToken, json } from "@/lib/simulator/http";
import { fbtraceId } from "@/lib/simulator/ids";
import type { SimulatorState, SimulatorTemplate } from "@/lib/simulator/state";
import { scheduleTemplateReview } from "@/lib/simulator/templates-review";
import { checkTemplateInput } from "@/lib/simulator/templates-validate";

/**
 * The provider's message templates API (Graph), as the simulator serves it:
 *   POST   /graph/{waba_id}/message_templates {name, language, category, components, parameter_format?}
 *          → {id, status: "PENDING", category}; the review follows (templates-review.ts)
 *   DELETE /graph/{waba_id}/message_templates?name=<name>[&hsm_id=<id>] → {success: true}
 *          (with hsm_id that one template; without, every language of the name, as the provider does)
 *   GET    /graph/{template_id}?fields=   the template's id, name, language, status, category, components, ...
 * The same (name, language) twice under one business account is refused with 100 / 2388024.
 */
const MAX_TEMPLATES = 2_000;
const DUPLICATE_TEMPLATE_SUBCODE = 2388024;

/** 16 digits starting with 1: looks like the provider's ids and stays below 2^53 (the webhook sends a number). */
function newTemplateId(state: SimulatorState): string {
  for (;;) {
    const id = `1${String(randomInt(0, 1e8)).padStart(8, "0")}${String(randomInt(0, 1e7)).padStart(7, "0")}`;
    if (!state.templates.has(id)) return id;
  }
}

function remember(state: SimulatorState, template: SimulatorTemplate): void {
  state.templates.set(template.id, template);
  for (const id of state.templates.keys()) {
    if (state.templates.size <= MAX_TEMPLATES) break;
    state.templates.delete(id);
  }
}

function duplicateTemplate(language: string): Response {
  return json(400, {
    error: {
      message: "Invalid parameter",
      type: "OAuthException",
      code: 100,
      error_subcode: DUPLICATE_TEMPLATE_SUBCODE,
      is_transient: false,
      error_user_title: "Content in this language already exists",
      error_user_msg: `This template already has content in ${language}. Use another name, or delete the existing template first.`,
      fbtrace_id: fbtraceId(),
    },
  });
}

/** POST /graph/{waba_id}/message_templates. */
export async function submitTemplate(ctx: SimulatorContext, request: Request, wabaId: string): Promise<Response> {
  if (!bearerToken(request)) return invalidToken();
  const read = await readParams(request);
  if (!read.ok) return invalidParameter("The request body must be valid JSON or form-encoded.", true);
  const checked = checkTemplateInput(read.value);
  if (!checked.ok) return invalidParameter(checked.details, true);
  const input = checked.value;
  for (const existing of ctx.state.templates.values()) {
    if (existing.business_account_id === wabaId && existing.name === input.name && existing.language === input.language) {
      return duplicateTemplate(input.language);
    }
  }
  const template: SimulatorTemplate = {
    ...input,
    id: newTemplateId(ctx.state),
    business_account_id: wabaId,
    status: "PENDING",
    reason: "NONE",
    created_at: ctx.now().toISOString(),
  };
  remember(ctx.state, template);
  scheduleTemplateReview(ctx, template);
  return json(200, { id: template.id, status: template.status, category: template.category });
}

/** DELETE /graph/{waba_id}/message_templates?name=&hsm_id=. */
export function deleteTemplates(ctx: SimulatorContext, request: Request, wabaId: string): Response {
  if (!bearerToken(request)) return invalidToken();
  const query = new URL(request.url).searchParams;
  const name = query.get("name");
  const hsmId = query.get("hsm_id");
  if (!name) return invalidParameter("Param name is required.", true);
  const doomed = [...ctx.state.templates.values()].filter(
    (template) => template.business_account_id === wabaId && template.name === name && (!hsmId || template.id === hsmId),
  );
  if (doomed.length === 0) {
    const which = hsmId ? `with id ${hsmId} and name ${name}` : `named ${name}`;
    return graphError({
      status: 400,
      code: 100,
      message: "(#100) Invalid parameter",
      details: `No message template ${which} exists in this account.`,
      whatsapp: true,
    });
  }
  for (const template of doomed) ctx.state.templates.delete(template.id);
  return json(200, { success: true });
}

const TEMPLATE_FIELDS: Record<string, (template: SimulatorTemplate) => unknown> = {
  id: (template) => template.id,
  name: (template) => template.name,
  language: (template) => template.language,
  status: (template) => template.status,
  category: (template) => template.category,
  components: (template) => template.components,
  parameter_format: (template) => template.parameter_format ?? "POSITIONAL",
  rejected_reason: (template) => (template.status === "REJECTED" ? template.reason : "NONE"),
};
const DEFAULT_FIELDS = ["id", "name", "language", "status", "category", "components"];

/** GET /graph/{template_id}: the requested fields (unknown ones are ignored, as Graph ignores them). */
export function getTemplate(ctx: SimulatorContext, request: Request, templateId: string): Response {
  if (!bearerToken(request)) return invalidToken();
  const template = ctx.state.templates.get(templateId);
  if (!template) return unknownObject("get", templateId);
  const asked = new URL(request.url).searchParams.get("fields");
  const fields = asked ? asked.split(",").map((field) => field.trim()) : DEFAULT_FIELDS;
  const out: Record<string, unknown> = { id: template.id };
  for (const field of fields) {
    const value = TEMPLATE_FIELDS[field]?.(template);
    if (value !== undefined) out[field] = value;
  }
  return json(200, out);
}
