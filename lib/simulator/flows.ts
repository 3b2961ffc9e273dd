import { randomInt } from "node:crypto";
import type { SimulatorContext } from "@/lib/simulator/context";
import { changeFlowStatusLater } from "@/lib/simulator/flows-webhook";
import { toValidationErrors, validateFlowJson } from "@/lib/simulator/flows-validate";
import { bearerToken, graphError, invalidParameter, invalidToken, isRecord, json } from "@/lib/simulator/http";
import { fbtraceId } from "@/lib/simulator/ids";
import type { SimulatorFlow, SimulatorState } from "@/lib/simulator/state";

/**
 * The provider's Flows API (Graph), as the simulator serves it:
 *   POST /graph/{waba_id}/flows {name, categories, flow_json (string or object), endpoint_uri?, publish?}
 *        → {id, success: true, validation_errors: [...]} (a DRAFT flow, stored even with errors, as the provider does)
 *   POST /graph/{flow_id}/publish   DRAFT without validation errors → PUBLISHED, else 139002
 *   POST /graph/{flow_id}/deprecate PUBLISHED → DEPRECATED, else 139003
 *   GET  /graph/{flow_id}?fields=id,name,status,categories,validation_errors,json_version,data_api_version,endpoint_uri
 * Every status change is announced on the `flows` webhook (flows-webhook.ts). Bodies may be JSON or
 * form-encoded, as Graph takes both.
 */
const FLOW_CATEGORIES: ReadonlySet<string> = new Set([
  "SIGN_UP",
  "SIGN_IN",
  "APPOINTMENT_BOOKING",
  "LEAD_GENERATION",
  "CONTACT_US",
  "CUSTOMER_SUPPORT",
  "SURVEY",
  "SHOPPING",
  "OTHER",
]);

/** Flows kept per simulator; the oldest go first (a long-running dev server must not grow without limit). */
const MAX_FLOWS = 2_000;
const MAX_NAME = 200;

type Params = Record<string, unknown>;

/** POST parameters: the query string, overridden by a JSON or form-encoded body. */
export async function readParams(request: Request): Promise<{ ok: true; value: Params } | { ok: false }> {
  const value: Params = {};
  for (const [key, item] of new URL(request.url).searchParams) if (key !== "access_token") value[key] = item;
  const type = request.headers.get("content-type") ?? "";
  try {
    if (/application\/x-www-form-urlencoded|multipart\/form-data/i.test(type)) {
      for (const [key, item] of await request.formData()) if (typeof item === "string") value[key] = item;
      return { ok: true, value };
    }
    const text = await request.text();
    if (text.trim() === "") return { ok: true, value };
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? { ok: true, value: { ...value, ...parsed } } : { ok: false };
  } catch {
    return { ok: false };
  }
}

/** A Flows API refusal: `{error:{message:"(#code) title", type, code, is_transient, error_user_title, error_user_msg, fbtrace_id}}`. */
function flowError(code: number, title: string, detail: string, status = 400): Response {
  return json(status, {
    error: {
      message: `(#${code}) ${title}`,
      type: "OAuthException",
      code,
      is_transient: false,
      error_user_title: title,
      error_user_msg: detail,
      fbtrace_id: fbtraceId(),
    },
  });
}

export function unknownObject(method: string, id: string): Response {
  return graphError({
    status: 400,
    code: 100,
    subcode: 33,
    type: "GraphMethodException",
    message: `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
  });
}

function newFlowId(state: SimulatorState): string {
  for (;;) {
    const id = `${randomInt(1, 10)}${String(randomInt(0, 1e8)).padStart(8, "0")}${String(randomInt(0, 1e7)).padStart(7, "0")}`;
    if (!state.flows.has(id)) return id;
  }
}

function remember(state: SimulatorState, flow: SimulatorFlow): void {
  state.flows.set(flow.id, flow);
  for (const id of state.flows.keys()) {
    if (state.flows.size <= MAX_FLOWS) break;
    state.flows.delete(id);
  }
}

function parseCategories(value: unknown): string[] | null {
  let list = value;
  if (typeof value === "string") {
    try {
      list = JSON.parse(value) as unknown;
    } catch {
      list = value.split(",").map((item) => item.trim());
    }
  }
  if (!Array.isArray(list) || list.length === 0) return null;
  return list.every((item) => typeof item === "string" && FLOW_CATEGORIES.has(item)) ? (list as string[]) : null;
}

/** flow_json as the provider reads it: a JSON string (kept as the text positions refer to) or an object. */
function parseFlowJson(value: unknown): { json: Record<string, unknown>; text: string } | null {
  if (value === undefined) return { json: {}, text: "{}" };
  if (isRecord(value)) return { json: value, text: JSON.stringify(value, null, 2) };
  if (typeof value !== "string") return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return isRecord(parsed) ? { json: parsed, text: value } : null;
  } catch {
    return null;
  }
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

/** The create request's problem as the provider words it, or null. */
function createProblem(state: SimulatorState, wabaId: string, params: Params): Response | null {
  const name = params.name;
  if (typeof name !== "string" || name.trim() === "" || Array.from(name).length > MAX_NAME) {
    return invalidParameter(`Param name is required and must be 1 to ${MAX_NAME} characters long.`, true);
  }
  if (!parseCategories(params.categories)) {
    return invalidParameter(`Param categories must be a non-empty list of ${[...FLOW_CATEGORIES].join(", ")}.`, true);
  }
  if (params.endpoint_uri !== undefined && !isHttpUrl(params.endpoint_uri)) return invalidParameter("Param endpoint_uri must be a valid URL.", true);
  for (const flow of state.flows.values()) {
    if (flow.business_account_id === wabaId && flow.name === name) {
      return flowError(100, "Flow name is not unique", "Another Flow on this WhatsApp Business Account already has this name; use a different name.");
    }
  }
  return null;
}

/** POST /graph/{waba_id}/flows. */
export async function createFlow(ctx: SimulatorContext, request: Request, wabaId: string): Promise<Response> {
  if (!bearerToken(request)) return invalidToken();
  const read = await readParams(request);
  if (!read.ok) return invalidParameter("The request body must be valid JSON or form-encoded.", true);
  const params = read.value;
  const problem = createProblem(ctx.state, wabaId, params);
  if (problem) return problem;
  const document = parseFlowJson(params.flow_json);
  if (!document) return flowError(139001, "Error while processing Flow JSON", "flow_json must be a JSON object, sent as a string.");
  const validationErrors = toValidationErrors(validateFlowJson(document.json), document.text);
  const flow: SimulatorFlow = {
    id: newFlowId(ctx.state),
    business_account_id: wabaId,
    name: params.name as string,
    flow_json: document.json,
    endpoint_uri: typeof params.endpoint_uri === "string" ? params.endpoint_uri : null,
    status: "DRAFT",
    validation_errors: validationErrors as unknown as Record<string, unknown>[],
    created_at: ctx.now().toISOString(),
    categories: parseCategories(params.categories)!,
  };
  remember(ctx.state, flow);
  // publish: true publishes in the same call when the JSON is clean; with errors the draft stays.
  if ((params.publish === true || params.publish === "true") && !publishRefusal(ctx, flow)) changeFlowStatusLater(ctx, flow, "PUBLISHED");
  return json(200, { id: flow.id, success: true, validation_errors: validationErrors });
}

/** Why this flow cannot be published now (the provider's 139002 family), or null; consumes an armed failure. */
function publishRefusal(ctx: SimulatorContext, flow: SimulatorFlow): Response | null {
  const armed = ctx.state.flowPublishFailures.get(flow.business_account_id);
  if (armed) {
    ctx.state.flowPublishFailures.delete(flow.business_account_id);
    return flowError(armed.code, "Flow failed to publish", armed.message);
  }
  if (flow.status !== "DRAFT") {
    return flowError(139002, "Publishing Flow in invalid state", `Only a DRAFT Flow can be published; this Flow is ${flow.status}.`);
  }
  if (flow.validation_errors.length > 0) {
    return flowError(
      139002,
      "Publishing Flow with validation errors",
      `The Flow JSON has ${flow.validation_errors.length} validation error(s); fix them and publish again.`,
    );
  }
  if (flow.flow_json.data_api_version !== undefined && !flow.endpoint_uri) {
    return flowError(
      139002,
      "Publishing without specifying endpoint_uri is forbidden",
      "A Flow with an endpoint needs endpoint_uri set through the API before it is published.",
    );
  }
  return null;
}

/** POST /graph/{flow_id}/publish. */
export function publishFlow(ctx: SimulatorContext, request: Request, flowId: string): Response {
  if (!bearerToken(request)) return invalidToken();
  const flow = ctx.state.flows.get(flowId);
  if (!flow) return unknownObject("post", flowId);
  const refusal = publishRefusal(ctx, flow);
  if (refusal) return refusal;
  changeFlowStatusLater(ctx, flow, "PUBLISHED");
  return json(200, { success: true });
}

/** POST /graph/{flow_id}/deprecate. */
export function deprecateFlow(ctx: SimulatorContext, request: Request, flowId: string): Response {
  if (!bearerToken(request)) return invalidToken();
  const flow = ctx.state.flows.get(flowId);
  if (!flow) return unknownObject("post", flowId);
  if (flow.status === "DEPRECATED") return flowError(139003, "Flow is already deprecated", "This Flow is already DEPRECATED.");
  if (flow.status !== "PUBLISHED")
    return flowError(139003, "Can't deprecate unpublished flow", `Only a PUBLISHED Flow can be deprecated; this Flow is ${flow.status}.`);
  changeFlowStatusLater(ctx, flow, "DEPRECATED");
  return json(200, { success: true });
}

const FLOW_FIELDS: Record<string, (flow: SimulatorFlow) => unknown> = {
  id: (flow) => flow.id,
  name: (flow) => flow.name,
  status: (flow) => flow.status,
  categories: (flow) => flow.categories ?? ["OTHER"],
  validation_errors: (flow) => flow.validation_errors,
  json_version: (flow) => flow.flow_json.version,
  data_api_version: (flow) => flow.flow_json.data_api_version,
  endpoint_uri: (flow) => flow.endpoint_uri ?? undefined,
  whatsapp_business_account: (flow) => ({ id: flow.business_account_id }),
};
const DEFAULT_FIELDS = ["id", "name", "status", "categories", "validation_errors"];

/** GET /graph/{flow_id}: the requested fields (unknown ones are ignored, as Graph ignores them). */
export function getFlow(ctx: SimulatorContext, request: Request, flow: SimulatorFlow): Response {
  if (!bearerToken(request)) return invalidToken();
  const asked = new URL(request.url).searchParams.get("fields");
  const fields = asked ? asked.split(",").map((field) => field.trim()) : DEFAULT_FIELDS;
  const out: Record<string, unknown> = { id: flow.id };
  for (const field of fields) {
    const value = FLOW_FIELDS[field]?.(flow);
    if (value !== undefined) out[field] = value;
  }
  return json(200, out);
}
