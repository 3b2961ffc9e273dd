import { describe, expect, it } from "vitest";
import { toMessengerBody } from "@/lib/ports/provider/messenger";
import type { FlowAction, OutboundMessage } from "@/lib/ports/provider/outbound";
import { toPlatformABody } from "@/lib/ports/provider/platform-a";
import { ProviderError } from "@/lib/ports/provider/types";
import { validatePlatformABody } from "@/lib/simulator/validate-a";

/** The interactive Flow message: the PLATFORM_A body the adapter builds, and the simulator's checks of it. */
const TO = "15551234567";
const NAVIGATE: FlowAction = {
  flow_id: "1234567890123456",
  flow_token: "svcft_0123456789abcdefghijklmnop",
  flow_cta: "Book now",
  flow_action: "navigate",
  screen: "WELCOME",
  data: { name: "Ada" },
};

function flowMessage(flow: FlowAction, frame: { header?: string; footer?: string } = {}): OutboundMessage {
  return {
    content: {
      kind: "interactive",
      interactive: {
        type: "flow",
        body: "Pick a time that suits you",
        ...(frame.header ? { header: { type: "text" as const, text: frame.header } } : {}),
        ...(frame.footer ? { footer: frame.footer } : {}),
        flow,
      },
    },
  };
}

/** A valid Cloud API flow body with its action.parameters replaced (for the simulator's checks). */
function withParameters(parameters: Record<string, unknown>): Record<string, unknown> {
  const body = toPlatformABody(TO, flowMessage(NAVIGATE));
  const interactive = body.interactive as Record<string, unknown>;
  return { ...body, interactive: { ...interactive, action: { name: "flow", parameters } } };
}

const GOOD_PARAMETERS = {
  flow_message_version: "3",
  flow_token: "t",
  flow_id: "1",
  flow_cta: "Open",
  flow_action: "navigate",
  flow_action_payload: { screen: "A" },
};

describe("toPlatformABody, interactive flow", () => {
  it("navigate carries version 3, the token, id, CTA and the screen with its data, framed by header and footer", () => {
    const body = toPlatformABody(TO, flowMessage(NAVIGATE, { header: "Appointments", footer: "Takes a minute" }));
    expect(body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: TO,
      type: "interactive",
      interactive: {
        type: "flow",
        header: { type: "text", text: "Appointments" },
        body: { text: "Pick a time that suits you" },
        action: {
          name: "flow",
          parameters: {
            flow_message_version: "3",
            flow_token: NAVIGATE.flow_token,
            flow_id: NAVIGATE.flow_id,
            flow_cta: "Book now",
            flow_action: "navigate",
            flow_action_payload: { screen: "WELCOME", data: { name: "Ada" } },
          },
        },
        footer: { text: "Takes a minute" },
      },
    });
    expect(validatePlatformABody(body)).toBeNull();
  });

  it("leaves out empty data, which the provider refuses", () => {
    const body = toPlatformABody(TO, flowMessage({ ...NAVIGATE, data: {} }));
    const parameters = ((body.interactive as Record<string, unknown>).action as { parameters: Record<string, unknown> }).parameters;
    expect(parameters.flow_action_payload).toEqual({ screen: "WELCOME" });
    expect(validatePlatformABody(body)).toBeNull();
  });

  it("data_exchange has no payload: the endpoint answers INIT", () => {
    const body = toPlatformABody(TO, flowMessage({ ...NAVIGATE, flow_action: "data_exchange" }));
    const parameters = ((body.interactive as Record<string, unknown>).action as { parameters: Record<string, unknown> }).parameters;
    expect(parameters).toEqual({
      flow_message_version: "3",
      flow_token: NAVIGATE.flow_token,
      flow_id: NAVIGATE.flow_id,
      flow_cta: "Book now",
      flow_action: "data_exchange",
    });
    expect(validatePlatformABody(body)).toBeNull();
  });

  it("refuses navigate without a screen as a final ProviderError", () => {
    let caught: unknown;
    try {
      toPlatformABody(TO, flowMessage({ ...NAVIGATE, screen: undefined }));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ProviderError);
    expect((caught as ProviderError).retryable).toBe(false);
    expect((caught as ProviderError).failure.code).toBe("unsupported_content");
  });
});

describe("toMessengerBody, interactive flow", () => {
  it.each(["PLATFORM_B", "PLATFORM_C"] as const)("%s refuses it as unsupported content", (platform) => {
    let caught: unknown;
    try {
      toMessengerBody(platform, "psid-1", flowMessage(NAVIGATE));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ProviderError);
    expect((caught as ProviderError).failure).toMatchObject({
      code: "unsupported_content",
      summary: `Interactive flow messages are not supported on ${platform}`,
    });
    expect((caught as ProviderError).retryable).toBe(false);
  });
});

describe("validatePlatformABody, interactive flow", () => {
  it("accepts the documented parameters, flow_name instead of flow_id, and mode draft", () => {
    expect(validatePlatformABody(withParameters(GOOD_PARAMETERS))).toBeNull();
    const { flow_id: _id, ...byName } = GOOD_PARAMETERS;
    expect(validatePlatformABody(withParameters({ ...byName, flow_name: "booking", mode: "draft" }))).toBeNull();
  });

  it.each([
    ["a message version other than 3", { flow_message_version: "2" }, "flow_message_version"],
    ["an empty flow_token", { flow_token: "" }, "flow_token"],
    ["both flow_id and flow_name", { flow_name: "x" }, "Exactly one of"],
    ["a CTA over 20 characters", { flow_cta: "Book your appointment" }, "at most 20"],
    ["an emoji in the CTA", { flow_cta: "Book 📅" }, "emoji"],
    ["an unknown flow_action", { flow_action: "open" }, "navigate or data_exchange"],
    ["navigate without a screen", { flow_action_payload: { data: { a: 1 } } }, "['screen']"],
    ["navigate with empty data", { flow_action_payload: { screen: "A", data: {} } }, "non-empty object"],
    ["a payload with data_exchange", { flow_action: "data_exchange" }, "must be omitted"],
    ["an unknown mode", { mode: "preview" }, "draft or published"],
  ])("refuses %s", (_name, change, detail) => {
    expect(validatePlatformABody(withParameters({ ...GOOD_PARAMETERS, ...change }))).toContain(detail);
  });

  it("refuses a media header on a flow message", () => {
    const body = toPlatformABody(TO, flowMessage(NAVIGATE));
    const interactive = { ...(body.interactive as Record<string, unknown>), header: { type: "image", image: { link: "https://example.com/a.png" } } };
    expect(validatePlatformABody({ ...body, interactive })).toContain("must be of type text for flow messages");
  });
});
