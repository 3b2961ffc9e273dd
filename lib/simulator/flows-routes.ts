import type { SimulatorContext } from "@/lib/simulator/context";
import { controlFailNextPublish, controlFlowStatus, customerFlow } from "@/lib/simulator/flows-control";
import { readPublicKey, registerPublicKey } from "@/lib/simulator/flows-encryption";
import { createFlow, deprecateFlow, getFlow, publishFlow } from "@/lib/simulator/flows";
import { simulatorError } from "@/lib/simulator/http";

/**
 * The Flows routes of the simulator (index.ts asks here before its own table). Each answers null for
 * a path it does not serve, so the next table gets its turn.
 */
export const FLOW_ROUTES = [
  "POST /graph/{waba_id}/flows",
  "POST /graph/{flow_id}/publish",
  "POST /graph/{flow_id}/deprecate",
  "GET /graph/{flow_id}?fields=",
  "POST /graph/{phone_number_id}/whatsapp_business_encryption",
  "GET /graph/{phone_number_id}/whatsapp_business_encryption",
  "POST /control/flows/{flow_id}/status",
  "POST /control/flows/fail-next-publish",
  "GET /customer/flows/{flow_id}",
];

type Answer = Response | Promise<Response>;

function only(method: string, allowed: string, run: () => Answer): Answer {
  return method === allowed ? run() : simulatorError(405, `Use ${allowed} for this route`);
}

function graphFlowRoute(ctx: SimulatorContext, request: Request, method: string, segments: string[]): Answer | null {
  const [, id, action] = segments;
  if (!id) return null;
  if (segments.length === 2) return method === "GET" && ctx.state.flows.has(id) ? getFlow(ctx, request, ctx.state.flows.get(id)!) : null;
  if (segments.length !== 3) return null;
  switch (action) {
    case "flows":
      return only(method, "POST", () => createFlow(ctx, request, id));
    case "publish":
      return only(method, "POST", () => publishFlow(ctx, request, id));
    case "deprecate":
      return only(method, "POST", () => deprecateFlow(ctx, request, id));
    case "whatsapp_business_encryption":
      if (method === "GET") return readPublicKey(ctx, request, id);
      return only(method, "POST", () => registerPublicKey(ctx, request, id));
  }
  return null;
}

/** The response for a Flows route, or null when `segments` (decoded, after /api/simulator) is not one. */
export function routeFlows(ctx: SimulatorContext, request: Request, method: string, segments: string[]): Answer | null {
  const [head, second, third, fourth] = segments;
  if (head === "graph") return graphFlowRoute(ctx, request, method, segments);
  if (head === "control" && second === "flows" && third) {
    if (segments.length === 3 && third === "fail-next-publish") return only(method, "POST", () => controlFailNextPublish(ctx, request));
    if (segments.length === 4 && fourth === "status") return only(method, "POST", () => controlFlowStatus(ctx, request, third));
  }
  // GET only: POST /customer/flows/exchange (flow-exchange.ts) shares the prefix.
  if (head === "customer" && second === "flows" && third && segments.length === 3 && method === "GET") return customerFlow(ctx, third);
  return null;
}
