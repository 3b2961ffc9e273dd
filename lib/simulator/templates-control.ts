import type { SimulatorContext } from "@/lib/simulator/context";
import { isRecord, json, readJson, simulatorError } from "@/lib/simulator/http";
import { forceTemplateReview, type ReviewStatus } from "@/lib/simulator/templates-review";

/**
 * What tests and the dashboard's sandbox can make the reviewer do (not Graph API: the simulator's own
 * route, answering `{error:{message}}` on misuse):
 *   POST /templates/{meta_template_id}/review {status: APPROVED|REJECTED|PAUSED|DISABLED, reason?}
 *        → sets it, delivers the signed `message_template_status_update` webhook once and answers
 *          {id, old_status, new_status, reason, delivered_status} (our endpoint's HTTP status, null if unreachable)
 * Without a reason: REJECTED gives INVALID_FORMAT (the one rejection the simulator models), the others NONE.
 */
const FORCEABLE: ReadonlySet<string> = new Set<ReviewStatus>(["APPROVED", "REJECTED", "PAUSED", "DISABLED"]);
const MAX_REASON = 200;

/** POST /templates/{meta_template_id}/review. */
export async function controlTemplateReview(ctx: SimulatorContext, request: Request, templateId: string): Promise<Response> {
  const body = await readJson(request);
  if (!body.ok || !isRecord(body.value)) return simulatorError(400, "The request body must be a JSON object");
  const { status, reason } = body.value;
  if (typeof status !== "string" || !FORCEABLE.has(status)) return simulatorError(400, `status must be one of ${[...FORCEABLE].join(", ")}`);
  if (reason !== undefined && (typeof reason !== "string" || reason.trim() === "" || reason.length > MAX_REASON)) {
    return simulatorError(400, `reason must be a non-empty string of at most ${MAX_REASON} characters`);
  }
  const template = ctx.state.templates.get(templateId);
  if (!template) return simulatorError(404, `No template ${templateId} was submitted through the message templates API`);
  const oldStatus = template.status;
  if (oldStatus === status) return simulatorError(409, `Template ${templateId} is already ${status}`);
  const result = { status: status as ReviewStatus, reason: reason ?? (status === "REJECTED" ? "INVALID_FORMAT" : "NONE") };
  const outcome = await forceTemplateReview(ctx, template, result);
  if (!outcome.ok) ctx.log("template status webhook not delivered", outcome.error);
  return json(200, { id: template.id, old_status: oldStatus, new_status: result.status, reason: result.reason, delivered_status: outcome.status });
}
