import type { Services, SystemCtx } from "@/lib/domain/context";
import { systemCtx } from "@/lib/domain/context";
import { unseal } from "@/lib/crypto/secrets";
import { isRecord } from "@/lib/json";
import { appSecretFor, verifySignature } from "@/lib/ports/provider/app-secret";
import { screenIdsOf } from "@/lib/domain/flows/flow-json/screens";
import { checkBusinessAnswer } from "./answer-check";
import { decryptFlowRequest, encryptFlowResponse, FlowDecryptError, type DecryptedFlowRequest } from "./crypto";
import { decryptionKeysOf, findDispatch, flowJsonOfVersion, loadFlowWithProject, type DispatchRow } from "./facts";
import { forwardToDataUrl, type ForwardOptions } from "./forward";

/**
 * The provider's call to a DATA_EXCHANGE flow's endpoint, `POST /api/providers/platform-a/flows/{flow_id}/endpoint`
 * (docs/spec/decisions.md "Flows", DATA_EXCHANGE). In order: the app secret's signature (else 432), the
 * request decrypted with one of the business account's keys (else 421), `ping` answered at once, an
 * error notification acknowledged and logged, the flow_token checked (unknown, another flow's, expired
 * or already completed: 427), then the request forwarded to the flow's data_exchange_url and its answer
 * checked and encrypted back. Whatever goes wrong on the business's side is a 500 with the reason logged:
 * the provider shows the customer an error either way, and the operator needs to know why.
 */
export interface FlowEndpointInput {
  /** OUR flow id (flow_...), from the path. */
  flowId: string;
  /** The body exactly as received: the signature covers these bytes. */
  rawBody: string | Uint8Array;
  /** The X-Hub-Signature-256 header. */
  signature: string | null;
}

export interface FlowEndpointResult {
  status: number;
  body: string;
  contentType: string;
  /** Why a non-200 was answered (logged; not sent): for the route's callers and tests. */
  reason?: string;
}

export interface FlowEndpointOptions extends ForwardOptions {
  /** The PLATFORM_A app secret; default appSecretFor("PLATFORM_A"). Null: none configured, every call is refused. */
  appSecret?: string | null;
  log?: (line: string) => void;
}

const EXCHANGE_ACTIONS = new Set(["INIT", "BACK", "data_exchange"]);
const TEXT = "text/plain; charset=utf-8";

type Found = NonNullable<Awaited<ReturnType<typeof loadFlowWithProject>>>;

interface Call {
  ctx: SystemCtx;
  found: Found;
  request: DecryptedFlowRequest;
  options: FlowEndpointOptions;
  refuse(status: number, reason: string, publicMessage?: string): FlowEndpointResult;
}

export async function handleFlowEndpoint(services: Services, input: FlowEndpointInput, options: FlowEndpointOptions = {}): Promise<FlowEndpointResult> {
  const log = options.log ?? ((line: string) => console.warn(line));
  const refuse = (status: number, reason: string, publicMessage = reason): FlowEndpointResult => {
    log(`[flows.endpoint] flow ${input.flowId}: ${status} ${reason}`);
    return { status, body: publicMessage, contentType: TEXT, reason };
  };
  const secret = options.appSecret === undefined ? appSecretFor("PLATFORM_A") : options.appSecret;
  if (!secret) return refuse(432, "no PLATFORM_A app secret is configured (PLATFORM_A_APP_SECRET)", "X-Hub-Signature-256 cannot be verified");
  if (!verifySignature(secret, input.rawBody, input.signature)) return refuse(432, "X-Hub-Signature-256 does not match the body");

  const ctx = systemCtx(services);
  const found = await loadFlowWithProject(ctx.db, input.flowId);
  if (!found) return refuse(404, "no such flow");
  const decrypted = await decrypt(ctx, found, input.rawBody);
  if (!decrypted.ok) return refuse(421, decrypted.reason);
  const { payload } = decrypted.request;
  if (payload.action === "ping") return encrypted(decrypted.request, { data: { status: "active" } });
  if (isRecord(payload.data) && payload.data.error !== undefined) {
    log(`[flows.endpoint] flow ${input.flowId}: provider error notification ${JSON.stringify({ flow_token: payload.flow_token ?? null, ...payload.data })}`);
    return encrypted(decrypted.request, { data: { acknowledged: true } });
  }
  return exchange({ ctx, found, request: decrypted.request, options, refuse });
}

function encrypted(request: DecryptedFlowRequest, payload: unknown): FlowEndpointResult {
  return { status: 200, body: encryptFlowResponse(payload, request.aesKey, request.iv), contentType: TEXT };
}

async function decrypt(
  ctx: SystemCtx,
  found: Found,
  rawBody: string | Uint8Array,
): Promise<{ ok: true; request: DecryptedFlowRequest } | { ok: false; reason: string }> {
  let body: unknown;
  try {
    body = JSON.parse(typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody));
  } catch {
    return { ok: false, reason: "the body is not JSON" };
  }
  const keys = await decryptionKeysOf(ctx.db, found.flow, found.project.organizationId);
  if (!keys.length) return { ok: false, reason: "no channel of the flow's business account has a Flow key pair yet" };
  let lastReason = "";
  for (const sealed of keys) {
    try {
      return { ok: true, request: decryptFlowRequest(body, unseal(sealed)) };
    } catch (error) {
      if (!FlowDecryptError.is(error)) throw error;
      lastReason = error.message;
    }
  }
  return { ok: false, reason: lastReason };
}

/** 427 for a token the provider must stop using; null when the dispatch may exchange. */
function tokenProblem(dispatch: DispatchRow | null, flowId: string, now: Date): string | null {
  if (!dispatch || dispatch.flowId !== flowId) return "flow_token is not one of this flow's dispatches";
  if (dispatch.status === "COMPLETED") return "flow_token belongs to a completed dispatch";
  if (dispatch.status === "EXPIRED" || dispatch.expiresAt <= now) return "flow_token has expired";
  return null;
}

async function exchange(call: Call): Promise<FlowEndpointResult> {
  const { ctx, found, request, refuse } = call;
  const { flow, project } = found;
  const { payload } = request;
  const flowToken = typeof payload.flow_token === "string" ? payload.flow_token : null;
  const dispatch = flowToken ? await findDispatch(ctx.db, flowToken) : null;
  const problem = flowToken ? tokenProblem(dispatch, flow.id, ctx.now) : "the request has no flow_token";
  if (problem || !dispatch || !flowToken) return refuse(427, problem ?? "flow_token is unknown");
  const action = typeof payload.action === "string" ? payload.action : "";
  if (!EXCHANGE_ACTIONS.has(action)) return refuse(400, `unknown action "${action}"`);

  const failed = (reason: string) => refuse(500, reason, "The flow's data endpoint could not answer.");
  if (!flow.dataExchangeUrl) return failed("the flow has no data_exchange_url");
  const flowJson = await flowJsonOfVersion(ctx.db, flow.id, dispatch.flowVersion);
  if (!flowJson) return failed(`version ${dispatch.flowVersion} of the flow (the dispatch's) is not stored`);
  const forwarded = await forwardToDataUrl(
    { url: flow.dataExchangeUrl, project, now: ctx.now },
    {
      action,
      screen: typeof payload.screen === "string" ? payload.screen : null,
      data: isRecord(payload.data) ? payload.data : null,
      flow_token: flowToken,
      flow_id: flow.id,
      version: typeof payload.version === "string" ? payload.version : null,
      contact_id: dispatch.contactId,
      dispatch_id: dispatch.id,
    },
    call.options,
  );
  if (!forwarded.ok) return failed(forwarded.reason);
  const checked = checkBusinessAnswer(forwarded.value, { screenIds: screenIdsOf(flowJson), flowToken });
  if (!checked.ok) return failed(`data_exchange_url answered nonsense: ${checked.reason}`);
  return encrypted(request, checked.answer);
}
