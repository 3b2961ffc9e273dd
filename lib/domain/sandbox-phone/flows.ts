import type { Ctx } from "@/lib/domain/context";
import { SvcError } from "@/lib/errors";
import { ourInbox, type InboxItem } from "./inbox";
import { customerChannel, postCustomerMessage, simulatorCall, simulatorRequest } from "./simulator";

/**
 * The sandbox phone's side of a Flow message (docs/spec/decisions.md "Flows"): the customer opens
 * the flow it received, the phone talks to the flow's data endpoint through the simulator (which
 * encrypts and signs like the provider), and the submission goes back as the provider's nfm_reply.
 * Only flows of messages this project actually sent to this tester are reachable: on the shared
 * sandbox a provider flow id or flow_token of another project is a 404 here.
 */

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj | null => (value && typeof value === "object" && !Array.isArray(value) ? (value as Obj) : null);

export interface ReceivedFlowTarget {
  channel_id: string;
  from: string;
  /** The provider flow id (the message's `action.parameters.flow_id`). */
  id: string;
}

/** An interactive Flow message's `action.parameters` (Cloud API shape), or null for any other message. */
function flowParameters(body: Obj): Obj | null {
  const interactive = obj(body.interactive);
  if (body.type !== "interactive" || interactive?.type !== "flow") return null;
  const action = obj(interactive.action);
  return action?.name === "flow" ? obj(action.parameters) : null;
}

function matches(message: InboxItem, flowId: string, flowToken: string | undefined): boolean {
  const parameters = flowParameters(message.body);
  if (!parameters || String(parameters.flow_id) !== flowId) return false;
  return flowToken === undefined || parameters.flow_token === flowToken;
}

/** The simulator, the channel and the newest received message of this flow (with this flow_token when given), or 404. */
async function receivedOrThrow(ctx: Ctx, target: ReceivedFlowTarget, flowToken?: string) {
  const { base, channel } = await customerChannel(ctx, target.channel_id, target.from);
  const inbox = await ourInbox(ctx, base, channel, target.from);
  const message = inbox.findLast((item) => matches(item, target.id, flowToken));
  if (!message) {
    const what = flowToken === undefined ? `flow ${target.id}` : `flow ${target.id} with this flow_token`;
    throw new SvcError(
      "not_found",
      `${target.from} has not received ${what} from this project on channel ${channel.id}. Send the flow to this number first (POST /flows/send).`,
    );
  }
  return { base, channel, message };
}

interface SimulatorFlow {
  id: string;
  name: string;
  status: string;
  flow_json: Obj;
  endpoint_uri: string | null;
}

/** The provider's Flow JSON of a flow this tester received, as the customer's phone downloads it. */
export async function receivedFlow(ctx: Ctx, target: ReceivedFlowTarget) {
  const { base } = await receivedOrThrow(ctx, target);
  const { status, body } = await simulatorRequest(`${base}/customer/flows/${encodeURIComponent(target.id)}`, { method: "GET" });
  if (status === 404)
    throw new SvcError("not_found", `The provider no longer has flow ${target.id}: it was sent before the simulator restarted. Send the flow again.`);
  if (status < 200 || status >= 300 || !body) {
    throw new SvcError("invalid_request", `The simulator refused to open flow ${target.id}: ${body?.error?.message ?? `HTTP ${status}`}.`);
  }
  const flow = body as unknown as SimulatorFlow;
  return {
    object: "simulated_flow" as const,
    id: flow.id,
    name: flow.name,
    status: flow.status,
    flow_json: flow.flow_json,
    has_endpoint: Boolean(flow.endpoint_uri),
  };
}

export interface FlowExchangeInput extends ReceivedFlowTarget {
  flow_token: string;
  action: "INIT" | "BACK" | "data_exchange";
  screen?: string | undefined;
  data?: Obj | undefined;
}

/**
 * One request to the flow's data endpoint, made by the simulator as the provider makes it (encrypted,
 * signed, to our provider endpoint, which forwards it to the flow's data_exchange_url). The answer
 * is `{screen, data}` decrypted; `endpoint_status` is our provider endpoint's HTTP status (421, 427,
 * 432 or 500 carry no answer: the phone shows `endpoint_error`).
 */
export async function exchangeReceivedFlow(ctx: Ctx, input: FlowExchangeInput) {
  const { base, channel } = await receivedOrThrow(ctx, input, input.flow_token);
  const request = {
    flow_id: input.id,
    phone_number_id: channel.providerSenderId,
    flow_token: input.flow_token,
    action: input.action,
    ...(input.screen !== undefined ? { screen: input.screen } : {}),
    ...(input.data !== undefined ? { data: input.data } : {}),
  };
  const result = (await simulatorCall(`${base}/customer/flows/exchange`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(request),
  })) as { status: number; response?: unknown; error?: unknown };
  return {
    object: "simulated_flow_exchange" as const,
    endpoint_status: result.status,
    response: obj(result.response),
    // Why there is no answer: our endpoint's refusal text, or an answer that did not decrypt.
    endpoint_error: typeof result.error === "string" && result.error ? result.error : null,
  };
}

export interface FlowCompletionInput extends ReceivedFlowTarget {
  name?: string | undefined;
  flow_token: string;
  /** What the flow's terminal `complete` action (or the endpoint's extension_message_response.params) carries. */
  response: Obj;
}

/** Submits the flow: the customer's nfm_reply reaches our provider endpoint as the provider's signed webhook. */
export async function completeReceivedFlow(ctx: Ctx, input: FlowCompletionInput) {
  const { base, channel } = await receivedOrThrow(ctx, input, input.flow_token);
  return postCustomerMessage(base, channel, input.from, {
    type: "flow_completion",
    ...(input.name ? { name: input.name } : {}),
    flow: { flow_token: input.flow_token, response: input.response },
  });
}
