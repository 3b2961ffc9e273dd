import type { SimulatorContext } from "@/lib/simulator/context";
import { simulatorError } from "@/lib/simulator/http";
import { deleteTemplates, getTemplate, submitTemplate } from "@/lib/simulator/templates";
import { controlTemplateReview } from "@/lib/simulator/templates-control";

/**
 * The message templates routes of the simulator (index.ts asks here before its own table). Each answers
 * null for a path it does not serve, so the next table gets its turn.
 */
export const TEMPLATE_ROUTES = [
  "POST /graph/{waba_id}/message_templates",
  "DELETE /graph/{waba_id}/message_templates?name=&hsm_id=",
  "GET /graph/{template_id}?fields=",
  "POST /templates/{meta_template_id}/review",
];

type Answer = Response | Promise<Response>;

/** The response for a templates route, or null when `segments` (decoded, after /api/simulator) is not one. */
export function routeTemplates(ctx: SimulatorContext, request: Request, method: string, segments: string[]): Answer | null {
  const [head, second, third] = segments;
  if (!second) return null;
  if (head === "graph" && segments.length === 3 && third === "message_templates") {
    if (method === "POST") return submitTemplate(ctx, request, second);
    if (method === "DELETE") return deleteTemplates(ctx, request, second);
    return null; // index.ts answers other methods with Graph's "Unsupported request".
  }
  // A GET of an id that is no template falls through (media ids share the path).
  if (head === "graph" && segments.length === 2 && method === "GET" && ctx.state.templates.has(second)) return getTemplate(ctx, request, second);
  if (head === "templates" && segments.length === 3 && third === "review") {
    return method === "POST" ? controlTemplateReview(ctx, request, second) : simulatorError(405, "Use POST for this route");
  }
  return null;
}
