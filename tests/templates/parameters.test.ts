import { describe, expect, it } from "vitest";
import { checkTemplateParameters, flowButtonIndexes, needsFlowToken } from "@/lib/shared/templates/parameters";
import type { TemplateShape } from "@/lib/shared/templates/types";
import { templateShape, validateTemplateComponents } from "@/lib/shared/templates/validate";

type Send = any[];

/** Shapes come from real templates, checked valid first, so the two halves agree. */
function shapeOf(category: "UTILITY" | "MARKETING" | "AUTHENTICATION", components: unknown[], parameter_format?: "NAMED"): TemplateShape {
  const { issues, shape } = validateTemplateComponents({ category, components, parameter_format });
  expect(issues).toEqual({});
  return shape!;
}

const POSITIONAL = shapeOf("MARKETING", [
  { type: "HEADER", format: "TEXT", text: "Hello {{1}}", example: { header_text: ["Ana"] } },
  { type: "BODY", text: "Hi {{1}}, your order {{2}} ships today.", example: { body_text: [["Ana", "A-1"]] } },
  {
    type: "BUTTONS",
    buttons: [
      { type: "QUICK_REPLY", text: "Yes" },
      { type: "QUICK_REPLY", text: "No" },
      { type: "URL", text: "Track", url: "https://example.com/track/{{1}}", example: ["https://example.com/track/A1"] },
      { type: "PHONE_NUMBER", text: "Call us", phone_number: "+15550051310" },
      { type: "COPY_CODE", example: "SAVE10" },
      { type: "FLOW", text: "Book", flow_name: "booking", navigate_screen: "START" },
      { type: "URL", text: "Shop", url: "https://example.com/shop" },
    ],
  },
]);

const NAMED = shapeOf(
  "UTILITY",
  [
    {
      type: "BODY",
      text: "Order {{order_id}} for {{first_name}}.",
      example: {
        body_text_named_params: [
          { param_name: "order_id", example: "A-1" },
          { param_name: "first_name", example: "Ana" },
        ],
      },
    },
  ],
  "NAMED",
);

const IMAGE = shapeOf("MARKETING", [
  { type: "HEADER", format: "IMAGE", example: { header_handle: ["4::aW1h"] } },
  { type: "BODY", text: "New arrivals" },
]);
const LOCATION = shapeOf("UTILITY", [
  { type: "HEADER", format: "LOCATION" },
  { type: "BODY", text: "Your pickup point" },
]);
const AUTH = shapeOf("AUTHENTICATION", [{ type: "BODY" }, { type: "BUTTONS", buttons: [{ type: "OTP", otp_type: "COPY_CODE" }] }]);
const FLOW_ONLY = shapeOf("MARKETING", [
  { type: "BODY", text: "Book your visit" },
  { type: "BUTTONS", buttons: [{ type: "FLOW", text: "Book", flow_id: "flow_01J", navigate_screen: "START" }] },
]);

const text = (value: string) => ({ type: "text", text: value });

function positionalSend(): Send {
  return [
    { type: "header", parameters: [text("Ana")] },
    { type: "body", parameters: [text("Ana"), text("A-1")] },
    { type: "button", sub_type: "url", index: 2, parameters: [text("A1")] },
    { type: "button", sub_type: "copy_code", index: "4", parameters: [{ type: "coupon_code", coupon_code: "SAVE10" }] },
    { type: "button", sub_type: "flow", index: 5, parameters: [{ type: "action", action: { flow_token: "tok_1", flow_action_data: { plan: "pro" } } }] },
    { type: "button", sub_type: "quick_reply", index: 0, parameters: [{ type: "payload", payload: "YES" }] },
  ];
}

const namedSend = (): Send => [
  {
    type: "body",
    parameters: [
      { type: "text", parameter_name: "first_name", text: "Ana" },
      { type: "text", parameter_name: "order_id", text: "A-1" },
    ],
  },
];
const imageSend = (): Send => [{ type: "header", parameters: [{ type: "image", image: { link: "https://example.com/a.jpg" } }] }];
const locationSend = (): Send => [{ type: "header", parameters: [{ type: "location", location: { latitude: 52.37, longitude: 4.9, name: "Depot" } }] }];
const authSend = (): Send => [
  { type: "body", parameters: [text("123456")] },
  { type: "button", sub_type: "url", index: 0, parameters: [text("123456")] },
];

const issuePaths = (shape: TemplateShape, send: Send | undefined) => Object.keys(checkTemplateParameters(shape, send).issues).sort();

const VALID: Array<[string, TemplateShape, () => Send | undefined]> = [
  ["every parameter of a positional template (index as number or digit string)", POSITIONAL, positionalSend],
  ["the required parameters only (quick reply and flow left out)", POSITIONAL, () => positionalSend().slice(0, 4)],
  ["named parameters in any order", NAMED, namedSend],
  [
    "currency and date_time values",
    NAMED,
    () => [
      {
        type: "body",
        parameters: [
          { type: "currency", parameter_name: "order_id", currency: { fallback_value: "$10", code: "USD", amount_1000: 10000 } },
          { type: "date_time", parameter_name: "first_name", date_time: { fallback_value: "May 1" } },
        ],
      },
    ],
  ],
  ["an image header by link", IMAGE, imageSend],
  ["an image header by media id", IMAGE, () => [{ type: "header", parameters: [{ type: "image", image: { id: "1234" } }] }]],
  ["a location header", LOCATION, locationSend],
  ["an AUTHENTICATION code in the body and its OTP button", AUTH, authSend],
  ["no components for a template without variables", FLOW_ONLY, () => undefined],
  [
    "a FLOW action without token (svc mints one)",
    FLOW_ONLY,
    () => [{ type: "button", sub_type: "flow", index: 0, parameters: [{ type: "action", action: {} }] }],
  ],
  [
    "kinds written in upper case",
    POSITIONAL,
    () => positionalSend().map((c) => ({ ...c, type: c.type.toUpperCase(), ...(c.sub_type ? { sub_type: c.sub_type.toUpperCase() } : {}) })),
  ],
];

/** One row per mismatch: the change to a fitting send and exactly the issue paths it must produce. */
const INVALID: Array<[string, TemplateShape, () => Send, (send: Send) => void, string[]]> = [
  // the list and its components
  ["a component that is not an object", POSITIONAL, positionalSend, (s) => void s.push("body"), ["template.components.6"]],
  ["a component of an unknown type", POSITIONAL, positionalSend, (s) => void s.push({ type: "footer", parameters: [] }), ["template.components.6.type"]],
  ["the body given twice", POSITIONAL, positionalSend, (s) => void s.push(s[1]), ["template.components.6.type"]],
  ["a button index given twice", POSITIONAL, positionalSend, (s) => void s.push({ ...s[2], index: "2" }), ["template.components.6.index"]],
  // body
  ["too few body parameters", POSITIONAL, positionalSend, (s) => void s[1].parameters.pop(), ["template.components.1.parameters"]],
  ["too many body parameters", POSITIONAL, positionalSend, (s) => void s[1].parameters.push(text("extra")), ["template.components.1.parameters"]],
  ["body parameters that are not a list", POSITIONAL, positionalSend, (s) => void (s[1].parameters = text("Ana")), ["template.components.1.parameters"]],
  ["no body component", POSITIONAL, positionalSend, (s) => void s.splice(1, 1), ["template.components"]],
  [
    "body parameters for a body without variables",
    FLOW_ONLY,
    () => [],
    (s) => void s.push({ type: "body", parameters: [text("x")] }),
    ["template.components.0.parameters"],
  ],
  [
    "a body parameter of an unknown kind",
    POSITIONAL,
    positionalSend,
    (s) => void (s[1].parameters[0] = { type: "emoji", emoji: "🙂" }),
    ["template.components.1.parameters.0.type"],
  ],
  ["a body parameter that is not an object", POSITIONAL, positionalSend, (s) => void (s[1].parameters[0] = "Ana"), ["template.components.1.parameters.0"]],
  ["an empty text", POSITIONAL, positionalSend, (s) => void (s[1].parameters[1] = text("")), ["template.components.1.parameters.1.text"]],
  [
    "a malformed currency",
    POSITIONAL,
    positionalSend,
    (s) => void (s[1].parameters[1] = { type: "currency", currency: { code: "USD", amount_1000: 1.5 } }),
    ["template.components.1.parameters.1.currency"],
  ],
  [
    "a date_time without fallback_value",
    POSITIONAL,
    positionalSend,
    (s) => void (s[1].parameters[1] = { type: "date_time", date_time: {} }),
    ["template.components.1.parameters.1.date_time"],
  ],
  [
    "a parameter_name in a positional template",
    POSITIONAL,
    positionalSend,
    (s) => void (s[1].parameters[0].parameter_name = "first_name"),
    ["template.components.1.parameters.0.parameter_name"],
  ],
  // named
  ["a named parameter missing", NAMED, namedSend, (s) => void s[0].parameters.pop(), ["template.components.0.parameters"]],
  [
    "a named parameter the template does not have",
    NAMED,
    namedSend,
    (s) => void (s[0].parameters[1].parameter_name = "order"),
    ["template.components.0.parameters", "template.components.0.parameters.1.parameter_name"],
  ],
  [
    "a named parameter given twice",
    NAMED,
    namedSend,
    (s) => void s[0].parameters.push({ ...s[0].parameters[0] }),
    ["template.components.0.parameters.2.parameter_name"],
  ],
  [
    "a NAMED parameter without parameter_name",
    NAMED,
    namedSend,
    (s) => void delete s[0].parameters[0].parameter_name,
    ["template.components.0.parameters", "template.components.0.parameters.0.parameter_name"],
  ],
  // header
  ["no header for a header variable", POSITIONAL, positionalSend, (s) => void s.splice(0, 1), ["template.components"]],
  ["two header parameters for one variable", POSITIONAL, positionalSend, (s) => void s[0].parameters.push(text("x")), ["template.components.0.parameters"]],
  ["a header for a template without one", NAMED, namedSend, (s) => void s.push({ type: "header", parameters: [text("x")] }), ["template.components.1.type"]],
  ["no header for an image header", IMAGE, imageSend, (s) => void s.pop(), ["template.components"]],
  [
    "a video for an image header",
    IMAGE,
    imageSend,
    (s) => void (s[0].parameters[0] = { type: "video", video: { link: "https://example.com/a.mp4" } }),
    ["template.components.0.parameters.0.type"],
  ],
  ["an image without link or id", IMAGE, imageSend, (s) => void (s[0].parameters[0].image = {}), ["template.components.0.parameters.0.image"]],
  ["a text for an image header", IMAGE, imageSend, (s) => void (s[0].parameters = [text("x")]), ["template.components.0.parameters.0.type"]],
  ["no parameter for an image header", IMAGE, imageSend, (s) => void (s[0].parameters = []), ["template.components.0.parameters"]],
  [
    "a location without longitude",
    LOCATION,
    locationSend,
    (s) => void delete s[0].parameters[0].location.longitude,
    ["template.components.0.parameters.0.location"],
  ],
  // buttons
  ["a button without index", POSITIONAL, positionalSend, (s) => void delete s[5].index, ["template.components.5.index"]],
  ["a negative button index", POSITIONAL, positionalSend, (s) => void (s[5].index = -1), ["template.components.5.index"]],
  ["a button index the template does not have", POSITIONAL, positionalSend, (s) => void (s[5].index = 7), ["template.components.5.index"]],
  [
    "a button for a template without buttons",
    NAMED,
    namedSend,
    (s) => void s.push({ type: "button", sub_type: "quick_reply", index: 0, parameters: [] }),
    ["template.components.1.index"],
  ],
  ["a sub_type that does not match the button", POSITIONAL, positionalSend, (s) => void (s[2].sub_type = "quick_reply"), ["template.components.2.sub_type"]],
  ["a button without sub_type", POSITIONAL, positionalSend, (s) => void delete s[3].sub_type, ["template.components.3.sub_type"]],
  [
    "a parameter for a phone number button",
    POSITIONAL,
    positionalSend,
    (s) => void s.push({ type: "button", sub_type: "url", index: 3, parameters: [text("x")] }),
    ["template.components.6.index"],
  ],
  [
    "a parameter for a URL without variable",
    POSITIONAL,
    positionalSend,
    (s) => void s.push({ type: "button", sub_type: "url", index: 6, parameters: [text("x")] }),
    ["template.components.6.index"],
  ],
  ["two parameters for a URL button", POSITIONAL, positionalSend, (s) => void s[2].parameters.push(text("B2")), ["template.components.2.parameters"]],
  [
    "a payload for a URL button",
    POSITIONAL,
    positionalSend,
    (s) => void (s[2].parameters = [{ type: "payload", payload: "x" }]),
    ["template.components.2.parameters.0.type"],
  ],
  ["an empty URL suffix", POSITIONAL, positionalSend, (s) => void (s[2].parameters = [text(" ")]), ["template.components.2.parameters.0.text"]],
  ["no URL button component for a URL variable", POSITIONAL, positionalSend, (s) => void s.splice(2, 1), ["template.components"]],
  ["a quick reply without payload", POSITIONAL, positionalSend, (s) => void delete s[5].parameters[0].payload, ["template.components.5.parameters.0.payload"]],
  [
    "a code of 16 characters",
    POSITIONAL,
    positionalSend,
    (s) => void (s[3].parameters[0].coupon_code = "x".repeat(16)),
    ["template.components.3.parameters.0.coupon_code"],
  ],
  ["no copy-code button component", POSITIONAL, positionalSend, (s) => void s.splice(3, 1), ["template.components"]],
  ["a text for a flow button", POSITIONAL, positionalSend, (s) => void (s[4].parameters = [text("x")]), ["template.components.4.parameters.0.type"]],
  [
    "a flow action that is not an object",
    POSITIONAL,
    positionalSend,
    (s) => void (s[4].parameters[0].action = "open"),
    ["template.components.4.parameters.0.action"],
  ],
  [
    "a flow action with another field",
    POSITIONAL,
    positionalSend,
    (s) => void (s[4].parameters[0].action.screen = "START"),
    ["template.components.4.parameters.0.action.screen"],
  ],
  [
    "an empty flow_token",
    POSITIONAL,
    positionalSend,
    (s) => void (s[4].parameters[0].action.flow_token = ""),
    ["template.components.4.parameters.0.action.flow_token"],
  ],
  [
    "flow_action_data that is not an object",
    POSITIONAL,
    positionalSend,
    (s) => void (s[4].parameters[0].action.flow_action_data = "pro"),
    ["template.components.4.parameters.0.action.flow_action_data"],
  ],
  [
    "two parameters for a flow button",
    POSITIONAL,
    positionalSend,
    (s) => void s[4].parameters.push({ type: "action", action: {} }),
    ["template.components.4.parameters"],
  ],
  // AUTHENTICATION
  ["no code for the OTP button", AUTH, authSend, (s) => void s.pop(), ["template.components"]],
  ["the OTP button sent as copy_code", AUTH, authSend, (s) => void (s[1].sub_type = "copy_code"), ["template.components.1.sub_type"]],
];

describe("checkTemplateParameters", () => {
  it.each(VALID)("accepts %s", (_name, shape, send) => {
    expect(checkTemplateParameters(shape, send()).issues).toEqual({});
  });

  it.each(INVALID)("refuses %s", (_name, shape, base, change, paths) => {
    const send = base();
    change(send);
    expect(issuePaths(shape, send)).toEqual([...paths].sort());
  });

  it("refuses components that are not a list", () => {
    expect(issuePaths(POSITIONAL, { type: "body" } as unknown as Send)).toEqual(["template.components"]);
  });

  it("names what is missing and how to add it", () => {
    const { issues } = checkTemplateParameters(POSITIONAL, positionalSend().slice(0, 1));
    expect(issues["template.components"]).toEqual([
      'The template\'s body expects 2 parameters ({{1}}, {{2}}): add {type: "body", parameters: [...]}.',
      'Button 2 (URL) needs a value: add {type: "button", sub_type: "url", index: 2, parameters: [{type: "text", text: "<the end of the URL>"}]}.',
      'Button 4 (COPY_CODE) needs a value: add {type: "button", sub_type: "copy_code", index: 4, parameters: [{type: "coupon_code", coupon_code: "…"}]}.',
    ]);
  });

  it("says which sub_type a button takes", () => {
    const send = positionalSend();
    send[2].sub_type = "flow";
    expect(checkTemplateParameters(POSITIONAL, send).issues["template.components.2.sub_type"]).toEqual(['Button 2 is a URL button: use sub_type "url".']);
  });
});

describe("flowButtonIndexes", () => {
  it("lists the FLOW buttons by index", () => {
    expect(flowButtonIndexes(POSITIONAL)).toEqual([5]);
    expect(flowButtonIndexes(FLOW_ONLY)).toEqual([0]);
    expect(flowButtonIndexes(NAMED)).toEqual([]);
  });
});

describe("needsFlowToken", () => {
  const twoFlows = templateShape([
    { type: "BODY", text: "Pick one" },
    {
      type: "BUTTONS",
      buttons: [
        { type: "FLOW", text: "Book", flow_name: "booking", navigate_screen: "START" },
        { type: "FLOW", text: "Survey", flow_name: "survey", flow_action: "data_exchange" },
      ],
    },
  ]);
  const flowButton = (index: number | string, action: unknown) => ({ type: "button", sub_type: "flow", index, parameters: [{ type: "action", action }] });

  it("lists every FLOW button when the send gives no button components", () => {
    expect(needsFlowToken(undefined, twoFlows)).toEqual([0, 1]);
  });

  it("lists a FLOW button whose action has no flow_token", () => {
    expect(needsFlowToken([flowButton(0, { flow_action_data: { a: 1 } }), flowButton("1", { flow_token: "tok" })], twoFlows)).toEqual([0]);
  });

  it("lists none when every FLOW button carries a token", () => {
    expect(needsFlowToken([flowButton("0", { flow_token: "a" }), flowButton(1, { flow_token: "b" })], twoFlows)).toEqual([]);
  });

  it("ignores buttons that are not FLOW buttons", () => {
    expect(needsFlowToken(positionalSend(), POSITIONAL)).toEqual([]);
    const send = positionalSend();
    send[4].parameters[0].action = {};
    expect(needsFlowToken(send, POSITIONAL)).toEqual([5]);
  });
});
