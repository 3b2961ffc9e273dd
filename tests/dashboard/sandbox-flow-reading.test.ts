import { describe, expect, it } from "vitest";
import { answerOf, readFlowMessage } from "@/components/sandbox/received-flow";
import type { BusinessMessage, FlowExchangeResult } from "@/lib/client/sandbox";

/** The sandbox phone's pure reading of Flow messages and data endpoint answers (components/sandbox/received-flow.ts). */
const FLOW_JSON = {
  version: "7.3",
  screens: [
    { id: "PICK", title: "Pick a slot", layout: { type: "SingleColumnLayout", children: [] } },
    { id: "CONFIRM", title: "Confirm", terminal: true, layout: { type: "SingleColumnLayout", children: [] } },
  ],
};

function businessMessage(body: Record<string, unknown>): BusinessMessage {
  return {
    object: "simulated_business_message",
    id: "wamid.1",
    type: String(body.type),
    text: null,
    status: "delivered",
    sent_at: "2026-01-01T00:00:00Z",
    body,
  };
}

function flowMessage(parameters: Record<string, unknown>) {
  return businessMessage({
    messaging_product: "whatsapp",
    to: "15550001111",
    type: "interactive",
    interactive: { type: "flow", body: { text: "Book a visit" }, action: { name: "flow", parameters } },
  });
}

const exchanged = (endpoint_status: number, response: Record<string, unknown> | null, endpoint_error: string | null = null): FlowExchangeResult => ({
  object: "simulated_flow_exchange",
  endpoint_status,
  response,
  endpoint_error,
});

describe("readFlowMessage", () => {
  it("reads a navigate flow's id, token, CTA and first screen with its data", () => {
    const read = readFlowMessage(
      flowMessage({
        flow_message_version: "3",
        flow_token: "svcft_abc",
        flow_id: "123456",
        flow_cta: "Book",
        flow_action: "navigate",
        flow_action_payload: { screen: "PICK", data: { city: "Lisbon" } },
      }),
    );
    expect(read).toEqual({
      messageId: "wamid.1",
      flowId: "123456",
      flowToken: "svcft_abc",
      cta: "Book",
      flowAction: "navigate",
      screen: "PICK",
      data: { city: "Lisbon" },
    });
  });

  it("a data_exchange flow has no first screen of its own; missing CTA and token take the provider's defaults", () => {
    const read = readFlowMessage(flowMessage({ flow_message_version: "3", flow_id: 987, flow_action: "data_exchange" }));
    expect(read).toMatchObject({ flowId: "987", flowToken: "unused", cta: "Open", flowAction: "data_exchange", screen: null, data: undefined });
  });

  it("is null for other messages and for a flow message without a flow id", () => {
    expect(readFlowMessage(businessMessage({ type: "text", text: { body: "hi" } }))).toBeNull();
    expect(readFlowMessage(businessMessage({ type: "interactive", interactive: { type: "button", action: { buttons: [] } } }))).toBeNull();
    expect(readFlowMessage(flowMessage({ flow_token: "svcft_abc" }))).toBeNull();
  });
});

describe("answerOf", () => {
  it("a screen of the flow is the next step, with its data and any error_message to show", () => {
    expect(answerOf(exchanged(200, { screen: "CONFIRM", data: { slot: "9:00" } }), FLOW_JSON)).toEqual({
      kind: "screen",
      step: { screen: "CONFIRM", data: { slot: "9:00" } },
      notice: null,
    });
    expect(answerOf(exchanged(200, { screen: "PICK", data: { error_message: "That slot is gone" } }), FLOW_JSON)).toMatchObject({
      kind: "screen",
      notice: "That slot is gone",
    });
  });

  it("SUCCESS ends the flow with extension_message_response.params", () => {
    const answer = answerOf(
      exchanged(200, { screen: "SUCCESS", data: { extension_message_response: { params: { flow_token: "t", slot: "9:00" } } } }),
      FLOW_JSON,
    );
    expect(answer).toEqual({ kind: "success", params: { flow_token: "t", slot: "9:00" } });
  });

  it("says why when there is no usable answer: a refusal, an unreadable answer, no screen, an unknown screen", () => {
    expect(() => answerOf(exchanged(427, null), FLOW_JSON)).toThrow(/HTTP 427: the flow_token is unknown or expired/);
    expect(() => answerOf(exchanged(418, null, "teapot"), FLOW_JSON)).toThrow(/HTTP 418: teapot/);
    expect(() => answerOf(exchanged(200, null, "The answer does not decrypt"), FLOW_JSON)).toThrow(/could not be read: The answer does not decrypt/);
    expect(() => answerOf(exchanged(200, { data: {} }), FLOW_JSON)).toThrow(/names no screen/);
    expect(() => answerOf(exchanged(200, { screen: "ELSEWHERE", data: {} }), FLOW_JSON)).toThrow(/“ELSEWHERE”, which is not a screen of this flow/);
  });
});
