import { screensOf } from "@/components/flow-render/flow-json-read";
import type { BusinessMessage, FlowExchangeResult } from "@/lib/client/sandbox";

/**
 * How the sandbox phone reads flows (pure, so tests run it directly): a received Flow message's
 * parameters, and the data endpoint's answers.
 */

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj | null => (value && typeof value === "object" && !Array.isArray(value) ? (value as Obj) : null);
const str = (value: unknown): string | null => (typeof value === "string" && value ? value : null);

/** A Flow message the customer received: what opening it needs (the provider's `action.parameters`). */
export interface ReceivedFlowMessage {
  messageId: string;
  /** The provider flow id. */
  flowId: string;
  flowToken: string;
  cta: string;
  /** data_exchange: the first screen comes from the data endpoint (INIT); navigate: from the message. */
  flowAction: "navigate" | "data_exchange";
  screen: string | null;
  data: Obj | undefined;
}

/**
 * The Flow in a business message, or null: an interactive message of type "flow" (Cloud API shape,
 * `action: {name: "flow", parameters: {flow_token, flow_id, flow_cta, flow_action, flow_action_payload?}}`).
 */
export function readFlowMessage(message: BusinessMessage): ReceivedFlowMessage | null {
  const interactive = obj(message.body.interactive);
  if (str(message.body.type) !== "interactive" || str(interactive?.type) !== "flow") return null;
  const parameters = obj(obj(interactive?.action)?.parameters);
  const flowId = parameters ? (str(parameters.flow_id) ?? (typeof parameters.flow_id === "number" ? String(parameters.flow_id) : null)) : null;
  if (!parameters || !flowId) return null;
  const payload = obj(parameters.flow_action_payload);
  return {
    messageId: message.id,
    flowId,
    // The provider's default when a business sends none.
    flowToken: str(parameters.flow_token) ?? "unused",
    cta: str(parameters.flow_cta) ?? "Open",
    flowAction: parameters.flow_action === "data_exchange" ? "data_exchange" : "navigate",
    screen: str(payload?.screen),
    data: obj(payload?.data) ?? undefined,
  };
}

/** One screen on the customer's way through a flow, with the data it was opened with. */
export interface FlowStep {
  screen: string;
  data: Obj;
}

export type FlowAnswer = { kind: "screen"; step: FlowStep; notice: string | null } | { kind: "success"; params: Obj };

// What our provider endpoint's refusals mean (docs/spec/decisions.md "Flows", DATA_EXCHANGE).
const ENDPOINT_REFUSALS: Record<number, string> = {
  421: "it could not decrypt the request",
  427: "the flow_token is unknown or expired",
  432: "the request signature did not match",
  500: "the flow's data URL failed or answered something that is not a screen of the flow (the endpoint logged why)",
};

export const screenIds = (flowJson: Obj) => screensOf(flowJson).map((screen) => String(screen.id));

/** The data endpoint's answer as the phone acts on it: the next screen, or the end of the flow. Throws what the customer should read. */
export function answerOf(result: FlowExchangeResult, flowJson: Obj): FlowAnswer {
  if (result.endpoint_status !== 200) {
    const why = ENDPOINT_REFUSALS[result.endpoint_status] ?? result.endpoint_error ?? "see the server log";
    throw new Error(`svc's flow endpoint answered HTTP ${result.endpoint_status}: ${why}.`);
  }
  if (!result.response) throw new Error(`The data endpoint's answer could not be read: ${result.endpoint_error ?? "it was empty"}.`);
  const screen = typeof result.response.screen === "string" ? result.response.screen : null;
  const data = obj(result.response.data) ?? {};
  if (!screen) throw new Error("The data endpoint's answer names no screen.");
  if (screen === "SUCCESS") return { kind: "success", params: obj(obj(data.extension_message_response)?.params) ?? {} };
  if (!screenIds(flowJson).includes(screen)) throw new Error(`The data endpoint answered screen “${screen}”, which is not a screen of this flow.`);
  return { kind: "screen", step: { screen, data }, notice: typeof data.error_message === "string" ? data.error_message : null };
}
