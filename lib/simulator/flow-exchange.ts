import { decryptFlowResponse, encryptFlowRequest, FlowDecryptError } from "@/lib/domain/flows/exchange/crypto";
import { signPayload } from "@/lib/ports/provider/app-secret";
import type { SimulatorContext } from "@/lib/simulator/context";
import { isRecord, json, readJson, simulatorError } from "@/lib/simulator/http";

/**
 * The provider's side of a DATA_EXCHANGE flow (docs/spec/decisions.md "Flows"): what the customer's
 * app makes the provider do while a flow is open. The request is encrypted for the public key the
 * number registered (whatsapp_business_encryption), signed with the app secret, POSTed to the flow's
 * endpoint_uri, and our answer decrypted, as the provider does.
 *
 * POST /customer/flows/exchange {flow_id (the provider flow id), phone_number_id, flow_token?, action,
 * screen?, data?, version?} → 200 {status, response}: our endpoint's HTTP status and, on 200, the
 * decrypted answer (else null).
 */
const ENDPOINT_TIMEOUT_MS = 10_000;
const DATA_API_VERSION = "3.0";
const ACTIONS = new Set(["ping", "INIT", "BACK", "data_exchange"]);

export interface FlowExchangeInput {
  /** The provider flow id (its endpoint_uri is used), or the endpoint URI itself. */
  flow_id?: string;
  endpoint_uri?: string;
  phone_number_id: string;
  flow_token?: string;
  action: string;
  screen?: string;
  data?: Record<string, unknown>;
  version?: string;
}

export type FlowExchangeOutcome =
  { ok: true; status: number; response: Record<string, unknown> | null; error?: string } | { ok: false; status: null; response: null; error: string };

function endpointOf(ctx: SimulatorContext, input: FlowExchangeInput): string | { error: string } {
  if (input.endpoint_uri) return input.endpoint_uri;
  const flow = input.flow_id ? ctx.state.flows.get(input.flow_id) : undefined;
  if (!flow) return { error: `No flow ${input.flow_id ?? "(flow_id missing)"} was created through the Flows API` };
  if (!flow.endpoint_uri) return { error: `Flow ${flow.id} has no endpoint_uri (not a DATA_EXCHANGE flow)` };
  return flow.endpoint_uri;
}

/** One exchange; never throws. `ok: false` when the request could not be made or sent at all. */
export async function exchangeWithEndpoint(ctx: SimulatorContext, input: FlowExchangeInput): Promise<FlowExchangeOutcome> {
  const endpoint = endpointOf(ctx, input);
  if (typeof endpoint !== "string") return { ok: false, status: null, response: null, error: endpoint.error };
  const publicKey = ctx.state.flowPublicKeys.get(input.phone_number_id);
  if (!publicKey) return { ok: false, status: null, response: null, error: `No public key is registered for phone number ${input.phone_number_id}` };
  const payload: Record<string, unknown> = { version: input.version ?? DATA_API_VERSION, action: input.action };
  if (input.action !== "ping") Object.assign(payload, { screen: input.screen, data: input.data, flow_token: input.flow_token });
  const { body, aesKey, iv } = encryptFlowRequest(payload, publicKey);
  const raw = JSON.stringify(body);
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signPayload(ctx.appSecret("PLATFORM_A"), raw) },
      body: raw,
      signal: AbortSignal.timeout(ENDPOINT_TIMEOUT_MS),
    });
  } catch (error) {
    return { ok: false, status: null, response: null, error: `Could not reach ${endpoint}: ${error instanceof Error ? error.message : String(error)}` };
  }
  const text = await response.text().catch(() => "");
  if (response.status !== 200) return { ok: true, status: response.status, response: null, error: text.slice(0, 500) };
  try {
    return { ok: true, status: 200, response: decryptFlowResponse(text, aesKey, iv) };
  } catch (error) {
    if (!FlowDecryptError.is(error)) throw error;
    return { ok: true, status: 200, response: null, error: `The answer does not decrypt: ${error.message}` };
  }
}

function parseExchangeInput(value: unknown): { ok: true; input: FlowExchangeInput } | { ok: false; error: string } {
  if (!isRecord(value)) return { ok: false, error: "The request body must be a JSON object" };
  const text = (name: string) => (typeof value[name] === "string" && value[name] !== "" ? (value[name] as string) : undefined);
  const flowId = text("flow_id");
  const phoneNumberId = text("phone_number_id");
  const action = text("action");
  if (!flowId) return { ok: false, error: "flow_id (the provider flow id) is required" };
  if (!phoneNumberId) return { ok: false, error: "phone_number_id is required" };
  if (!action || !ACTIONS.has(action)) return { ok: false, error: `action must be one of ${[...ACTIONS].join(", ")}` };
  if (action !== "ping" && !text("flow_token")) return { ok: false, error: "flow_token is required for every action but ping" };
  if (value.data !== undefined && !isRecord(value.data)) return { ok: false, error: "data must be an object" };
  return {
    ok: true,
    input: {
      flow_id: flowId,
      phone_number_id: phoneNumberId,
      action,
      flow_token: text("flow_token"),
      screen: text("screen"),
      data: value.data as Record<string, unknown> | undefined,
      version: text("version"),
    },
  };
}

/** POST /customer/flows/exchange. */
export async function customerFlowExchange(ctx: SimulatorContext, request: Request): Promise<Response> {
  const body = await readJson(request);
  if (!body.ok) return simulatorError(400, "The request body must be JSON");
  const parsed = parseExchangeInput(body.value);
  if (!parsed.ok) return simulatorError(400, parsed.error);
  const outcome = await exchangeWithEndpoint(ctx, parsed.input);
  if (!outcome.ok) {
    ctx.log("flow exchange not made", outcome.error);
    return json(outcome.error.startsWith("Could not reach") ? 502 : 404, { error: { message: outcome.error }, status: null, response: null });
  }
  return json(200, { status: outcome.status, response: outcome.response, ...(outcome.error ? { error: outcome.error } : {}) });
}
