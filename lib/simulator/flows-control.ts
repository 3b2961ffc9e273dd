import type { SimulatorContext } from "@/lib/simulator/context";
import { changeFlowStatusNow, type FlowStatus } from "@/lib/simulator/flows-webhook";
import { isRecord, json, readJson, simulatorError } from "@/lib/simulator/http";

/**
 * What tests and the sandbox can make the provider do to flows (not Graph API: the simulator's own
 * routes, answering `{error:{message}}` on misuse):
 *   POST /control/flows/{flow_id}/status {status: BLOCKED|THROTTLED|PUBLISHED|DEPRECATED}
 *        → sets it, delivers the signed `flows` webhook (old → new) and answers
 *          {id, old_status, new_status, delivered_status} (our endpoint's HTTP status, null if unreachable)
 *   POST /control/flows/fail-next-publish {business_account_id, message?, code?}
 *        → the next publish of a flow under that account fails (code 139002 unless given) → {business_account_id, armed: true}
 *   GET  /customer/flows/{flow_id} → {id, name, status, flow_json, endpoint_uri} (the sandbox phone renders it)
 */
const SETTABLE: ReadonlySet<string> = new Set<FlowStatus>(["BLOCKED", "THROTTLED", "PUBLISHED", "DEPRECATED"]);
const DEFAULT_FAILURE = "The provider could not publish this Flow right now (simulated failure).";

/** POST /control/flows/{flow_id}/status. */
export async function controlFlowStatus(ctx: SimulatorContext, request: Request, flowId: string): Promise<Response> {
  const body = await readJson(request);
  if (!body.ok || !isRecord(body.value)) return simulatorError(400, "The request body must be a JSON object");
  const status = body.value.status;
  if (typeof status !== "string" || !SETTABLE.has(status)) return simulatorError(400, `status must be one of ${[...SETTABLE].join(", ")}`);
  const flow = ctx.state.flows.get(flowId);
  if (!flow) return simulatorError(404, `No flow ${flowId} was created through the Flows API`);
  const oldStatus = flow.status;
  if (oldStatus === status) return simulatorError(409, `Flow ${flowId} is already ${status}`);
  if (status !== "THROTTLED") delete flow.recent_sends;
  const outcome = await changeFlowStatusNow(ctx, flow, status as FlowStatus);
  if (!outcome.ok) ctx.log("flow status webhook not delivered", outcome.error);
  return json(200, { id: flow.id, old_status: oldStatus, new_status: status, delivered_status: outcome.status });
}

/** POST /control/flows/fail-next-publish. */
export async function controlFailNextPublish(ctx: SimulatorContext, request: Request): Promise<Response> {
  const body = await readJson(request);
  if (!body.ok || !isRecord(body.value)) return simulatorError(400, "The request body must be a JSON object");
  const { business_account_id: account, message, code } = body.value;
  if (typeof account !== "string" || account === "") return simulatorError(400, "business_account_id is required");
  if (message !== undefined && (typeof message !== "string" || message === "")) return simulatorError(400, "message must be a non-empty string");
  if (code !== undefined && (typeof code !== "number" || !Number.isInteger(code) || code <= 0)) return simulatorError(400, "code must be a positive integer");
  ctx.state.flowPublishFailures.set(account, { code: code ?? 139002, message: message ?? DEFAULT_FAILURE });
  return json(200, { business_account_id: account, armed: true });
}

/** GET /customer/flows/{flow_id}. */
export function customerFlow(ctx: SimulatorContext, flowId: string): Response {
  const flow = ctx.state.flows.get(flowId);
  if (!flow) return simulatorError(404, `No flow ${flowId} was created through the Flows API`);
  return json(200, { id: flow.id, name: flow.name, status: flow.status, flow_json: flow.flow_json, endpoint_uri: flow.endpoint_uri });
}
