import type { SimulatorContext } from "@/lib/simulator/context";
import type { Envelope } from "@/lib/simulator/envelopes";
import type { SimulatorTemplate, SimulatorTemplateStatus } from "@/lib/simulator/state";
import { postSigned, postWithRetries, type PostOutcome } from "@/lib/simulator/delivery";

/**
 * How the simulated provider reviews message templates (docs/spec/decisions.md "Templates"), and the
 * `message_template_status_update` webhook that announces each result to our PLATFORM_A endpoint,
 * signed like every provider webhook:
 *   {object:"whatsapp_business_account", entry:[{id:<business account id>, time:<unix seconds>,
 *     changes:[{field:"message_template_status_update", value:{event:<new status>,
 *       message_template_id:<number>, message_template_name, message_template_language,
 *       message_template_category, reason, rejection_info?:{reason, recommendation},
 *       disable_info?:{disable_date}, other_info?:{title, description}}}]}]}
 * The provider sends the template id as a JSON number; simulator ids stay below 2^53 so it is exact.
 */
export const DEFAULT_TEMPLATE_REVIEW_MS = 2000;

/** The results a review (timed or forced) can give. */
export type ReviewStatus = Exclude<SimulatorTemplateStatus, "PENDING">;

export interface ReviewResult {
  status: ReviewStatus;
  reason: string;
}

/** `SVC_SIMULATOR_TEMPLATE_REVIEW_MS` as a delay: a whole number of ms ≥ 0, else the 2000 ms default. */
export function templateReviewDelayMs(raw: string | undefined): number {
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return DEFAULT_TEMPLATE_REVIEW_MS;
  const value = Number(raw.trim());
  return Number.isSafeInteger(value) ? value : DEFAULT_TEMPLATE_REVIEW_MS;
}

const EDGE_VARIABLE_START = /^\{\{\s*[A-Za-z0-9_]+\s*\}\}/;
const EDGE_VARIABLE_END = /\{\{\s*[A-Za-z0-9_]+\s*\}\}$/;

function bodyText(template: SimulatorTemplate): string | null {
  const body = template.components.find((component) => String(component.type).toUpperCase() === "BODY");
  return typeof body?.text === "string" ? body.text.trim() : null;
}

/** True when the BODY text starts or ends with a variable: the provider's INVALID_FORMAT rejection. */
function bodyHasEdgeVariable(template: SimulatorTemplate): boolean {
  const text = bodyText(template);
  return text !== null && (EDGE_VARIABLE_START.test(text) || EDGE_VARIABLE_END.test(text));
}

/** What the timed review decides: approved, unless the body starts or ends with a variable. */
function reviewVerdict(template: SimulatorTemplate): ReviewResult {
  return bodyHasEdgeVariable(template) ? { status: "REJECTED", reason: "INVALID_FORMAT" } : { status: "APPROVED", reason: "NONE" };
}

/** The provider's detail of an INVALID_FORMAT rejection (sent only with that reason). */
function rejectionInfo(template: SimulatorTemplate): { reason: string; recommendation: string } {
  if (bodyHasEdgeVariable(template)) {
    return {
      reason: "The message body starts or ends with a variable.",
      recommendation: "Put fixed text before the first variable and after the last one, then submit a new template.",
    };
  }
  return { reason: "The template's format is not valid.", recommendation: "Check the components against the template guidelines and submit a new template." };
}

function statusValue(template: SimulatorTemplate, at: Date): Record<string, unknown> {
  const value: Record<string, unknown> = {
    event: template.status,
    message_template_id: Number(template.id),
    message_template_name: template.name,
    message_template_language: template.language,
    reason: template.reason,
    message_template_category: template.category,
  };
  if (template.status === "REJECTED" && template.reason === "INVALID_FORMAT") value.rejection_info = rejectionInfo(template);
  if (template.status === "DISABLED") value.disable_info = { disable_date: Math.floor(at.getTime() / 1000) };
  if (template.status === "PAUSED")
    value.other_info = { title: "FIRST_PAUSE", description: `Your WhatsApp message template ${template.name} has been paused.` };
  return value;
}

/** The signed webhook body announcing the template's current status. */
function templateStatusEnvelope(template: SimulatorTemplate, at: Date): Envelope {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: template.business_account_id,
        time: Math.floor(at.getTime() / 1000),
        changes: [{ value: statusValue(template, at), field: "message_template_status_update" }],
      },
    ],
  };
}

function apply(template: SimulatorTemplate, result: ReviewResult): void {
  template.status = result.status;
  template.reason = result.reason;
}

/**
 * After `templateReviewMs`: a template still PENDING (not deleted, not forced meanwhile) gets the
 * verdict, announced with retries like status callbacks. Runs detached; never throws; a reset stops it.
 */
export function scheduleTemplateReview(ctx: SimulatorContext, template: SimulatorTemplate): void {
  const run = async () => {
    if (!(await ctx.sleep(ctx.templateReviewMs?.() ?? DEFAULT_TEMPLATE_REVIEW_MS))) return;
    if (ctx.state.templates.get(template.id) !== template || template.status !== "PENDING") return;
    apply(template, reviewVerdict(template));
    ctx.state.changed();
    await postWithRetries(ctx, "PLATFORM_A", templateStatusEnvelope(template, ctx.now()), "template status");
  };
  run().catch((error: unknown) => ctx.log("template review failed", error));
}

/** Sets a forced result and delivers the webhook once, answering with our endpoint's outcome (control route). */
export function forceTemplateReview(ctx: SimulatorContext, template: SimulatorTemplate, result: ReviewResult): Promise<PostOutcome> {
  apply(template, result);
  return postSigned(ctx, "PLATFORM_A", templateStatusEnvelope(template, ctx.now()));
}
