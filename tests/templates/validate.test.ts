import { describe, expect, it } from "vitest";
import { templateShape, validateTemplateComponents } from "@/lib/shared/templates/validate";

/** The rows mutate templates freely: components are loose JSON on the wire. */
type Template = { category: "UTILITY" | "MARKETING" | "AUTHENTICATION"; parameter_format?: "POSITIONAL" | "NAMED"; components: any[] };

/** A MARKETING template using every component and every non-OTP button kind, positional variables. */
function positional(): Template {
  return {
    category: "MARKETING",
    components: [
      { type: "HEADER", format: "TEXT", text: "Hello {{1}}", example: { header_text: ["Ana"] } },
      { type: "BODY", text: "Hi {{1}}, your order {{2}} ships today.", example: { body_text: [["Ana", "A-1"]] } },
      { type: "FOOTER", text: "Reply STOP to opt out" },
      {
        type: "BUTTONS",
        buttons: [
          { type: "QUICK_REPLY", text: "Yes" },
          { type: "QUICK_REPLY", text: "No" },
          { type: "URL", text: "Track", url: "https://example.com/track/{{1}}", example: ["https://example.com/track/A1"] },
          { type: "PHONE_NUMBER", text: "Call us", phone_number: "+15550051310" },
          { type: "COPY_CODE", example: "SAVE10" },
          { type: "FLOW", text: "Book", flow_name: "booking", navigate_screen: "START" },
        ],
      },
    ],
  };
}

/** A UTILITY template with named variables in the header and body. */
function named(): Template {
  return {
    category: "UTILITY",
    parameter_format: "NAMED",
    components: [
      {
        type: "HEADER",
        format: "TEXT",
        text: "Hi {{first_name}}",
        example: { header_text_named_params: [{ param_name: "first_name", example: "Ana" }] },
      },
      {
        type: "BODY",
        text: "Order {{order_id}} for {{first_name}} ships on {{day}}.",
        example: {
          body_text_named_params: [
            { param_name: "order_id", example: "A-1" },
            { param_name: "first_name", example: "Ana" },
            { param_name: "day", example: "Monday" },
          ],
        },
      },
    ],
  };
}

/** An AUTHENTICATION template as the provider builds them: preset text, expiry footer, one OTP button. */
function authentication(): Template {
  return {
    category: "AUTHENTICATION",
    components: [
      { type: "BODY", add_security_recommendation: true },
      { type: "FOOTER", code_expiration_minutes: 10 },
      { type: "BUTTONS", buttons: [{ type: "OTP", otp_type: "COPY_CODE", text: "Copy code" }] },
    ],
  };
}

const ANDROID_APP = { package_name: "com.example.app", signature_hash: "K8a/AINcGX7" };

type Row = [name: string, base: () => Template, change: (t: Template) => void, paths: string[]];

const issuePaths = (t: Template) => Object.keys(validateTemplateComponents(t).issues).sort();
const quickReplies = (n: number) => Array.from({ length: n }, (_, i) => ({ type: "QUICK_REPLY", text: `Option ${i}` }));
const buttonsOf = (t: Template) => t.components[3].buttons;
const flow = (t: Template) => buttonsOf(t)[5];

/** Templates the provider would take as they are. */
const VALID: Array<[string, () => Template, (t: Template) => void]> = [
  ["every component and every non-OTP button kind, positional", positional, () => {}],
  ["named variables in the header and body", named, () => {}],
  ["an AUTHENTICATION template with a copy-code OTP button", authentication, () => {}],
  ["an AUTHENTICATION template with nothing optional", authentication, (t) => void (t.components = [{ type: "BODY" }, t.components[2]])],
  [
    "a one-tap OTP button with its Android app",
    authentication,
    (t) => void (t.components[2].buttons[0] = { type: "OTP", otp_type: "ONE_TAP", autofill_text: "Autofill", supported_apps: [ANDROID_APP] }),
  ],
  [
    "a zero-tap OTP button with the terms accepted",
    authentication,
    (t) => void (t.components[2].buttons[0] = { type: "OTP", otp_type: "ZERO_TAP", zero_tap_terms_accepted: true, supported_apps: [ANDROID_APP] }),
  ],
  [
    "an IMAGE header with its sample handle",
    positional,
    (t) => void (t.components[0] = { type: "HEADER", format: "IMAGE", example: { header_handle: ["4::aW1h"] } }),
  ],
  [
    "a DOCUMENT header with its sample handle",
    positional,
    (t) => void (t.components[0] = { type: "HEADER", format: "DOCUMENT", example: { header_handle: ["4::ZG9j"] } }),
  ],
  ["a LOCATION header (no sample needed)", positional, (t) => void (t.components[0] = { type: "HEADER", format: "LOCATION" })],
  ["a text header without variables and without example", positional, (t) => void (t.components[0] = { type: "HEADER", format: "TEXT", text: "Order update" })],
  ["kinds written in lower case, as the provider's own examples do", positional, (t) => lowerCaseKinds(t)],
  ["components in another order than HEADER, BODY, FOOTER, BUTTONS", positional, (t) => void t.components.reverse()],
  ["a positional variable used twice", positional, (t) => void (t.components[1].text = "Hi {{1}}, order {{2}} is for {{1}}.")],
  [
    "a body starting and ending with variables (the review judges that, not validation)",
    positional,
    (t) => void (t.components[1].text = "{{1}} has order {{2}}"),
  ],
  [
    "a URL button without a variable and without example",
    positional,
    (t) => void (buttonsOf(t)[2] = { type: "URL", text: "Shop", url: "https://example.com/shop" }),
  ],
  ["a phone number without its plus sign, as the provider's examples write it", positional, (t) => void (buttonsOf(t)[3].phone_number = "15550051310")],
  ["a FLOW button by flow_id", positional, (t) => void (buttonsOf(t)[5] = { type: "FLOW", text: "Book", flow_id: "flow_01J", navigate_screen: "START" })],
  [
    "a data_exchange FLOW button without navigate_screen",
    positional,
    (t) => void (buttonsOf(t)[5] = { type: "FLOW", text: "Book", flow_name: "booking", flow_action: "data_exchange" }),
  ],
  ["quick replies after the other buttons", positional, (t) => void buttonsOf(t).reverse()],
  ["ten buttons", positional, (t) => void (t.components[3].buttons = quickReplies(10))],
  ["a body only", positional, (t) => void (t.components = [t.components[1]])],
];

function lowerCaseKinds(t: Template) {
  for (const component of t.components) component.type = component.type.toLowerCase();
  t.components[0].format = "text";
  for (const button of buttonsOf(t)) button.type = button.type.toLowerCase();
}

/** One row per rule: the change that breaks it and exactly the issue paths it must produce. */
const INVALID: Row[] = [
  // components
  ["no components", positional, (t) => void (t.components = []), ["components"]],
  ["no BODY", positional, (t) => void t.components.splice(1, 1), ["components"]],
  ["a component that is not an object", positional, (t) => void t.components.push("FOOTER"), ["components.4"]],
  ["a component of an unknown type", positional, (t) => void (t.components[2].type = "SIGNATURE"), ["components.2.type"]],
  ["two BODY components", positional, (t) => void t.components.push({ type: "BODY", text: "Again" }), ["components.4.type"]],
  ["two HEADER components", positional, (t) => void t.components.push({ type: "HEADER", format: "LOCATION" }), ["components.4.type"]],
  ["two FOOTER components", positional, (t) => void t.components.push({ type: "FOOTER", text: "Again" }), ["components.4.type"]],
  ["two BUTTONS components", positional, (t) => void t.components.push({ type: "BUTTONS", buttons: quickReplies(1) }), ["components.4.type"]],
  // header
  ["a header of an unknown format", positional, (t) => void (t.components[0].format = "AUDIO"), ["components.0.format"]],
  ["a text header without text", positional, (t) => void delete t.components[0].text, ["components.0.text"]],
  ["a text header of 61 characters", positional, (t) => void (t.components[0].text = "x".repeat(61)), ["components.0.text"]],
  [
    "a text header with two variables",
    positional,
    (t) => void Object.assign(t.components[0], { text: "{{1}} and {{2}}", example: { header_text: ["a", "b"] } }),
    ["components.0.text"],
  ],
  ["a header variable without example", positional, (t) => void delete t.components[0].example, ["components.0.example"]],
  [
    "a header example with two values for one variable",
    positional,
    (t) => void (t.components[0].example.header_text = ["a", "b"]),
    ["components.0.example.header_text"],
  ],
  [
    "an IMAGE header without sample handle",
    positional,
    (t) => void (t.components[0] = { type: "HEADER", format: "IMAGE" }),
    ["components.0.example.header_handle"],
  ],
  [
    "a VIDEO header with an empty handle list",
    positional,
    (t) => void (t.components[0] = { type: "HEADER", format: "VIDEO", example: { header_handle: [] } }),
    ["components.0.example.header_handle"],
  ],
  // body
  ["a body without text", positional, (t) => void delete t.components[1].text, ["components.1.text"]],
  ["a blank body", positional, (t) => void (t.components[1] = { type: "BODY", text: "   " }), ["components.1.text"]],
  ["a body of 1025 characters", positional, (t) => void (t.components[1] = { type: "BODY", text: "x".repeat(1025) }), ["components.1.text"]],
  ["variables out of order", positional, (t) => void (t.components[1].text = "Order {{2}} for {{1}}"), ["components.1.text"]],
  ["a gap in the numbering", positional, (t) => void (t.components[1].text = "Hi {{1}}, order {{3}}"), ["components.1.text"]],
  ["numbering starting at 0", positional, (t) => void (t.components[1].text = "Hi {{0}}, order {{1}}"), ["components.1.text"]],
  ["a named variable in a POSITIONAL template", positional, (t) => void (t.components[1].text = "Hi {{first_name}}, order {{1}} {{2}}"), ["components.1.text"]],
  ["a variable with spaces", positional, (t) => void (t.components[1].text = "Hi {{ 1 }}, order {{1}} {{2}}"), ["components.1.text"]],
  ["a variable in capitals", positional, (t) => void (t.components[1].text = "Hi {{Name}}, order {{1}} {{2}}"), ["components.1.text"]],
  ["body variables without example", positional, (t) => void delete t.components[1].example, ["components.1.example"]],
  ["a body example with too few values", positional, (t) => void (t.components[1].example.body_text = [["Ana"]]), ["components.1.example.body_text"]],
  [
    "a body example with too many values",
    positional,
    (t) => void (t.components[1].example.body_text = [["Ana", "A-1", "x"]]),
    ["components.1.example.body_text"],
  ],
  ["a body example not nested in a list", positional, (t) => void (t.components[1].example.body_text = ["Ana", "A-1"]), ["components.1.example.body_text"]],
  ["a body example with a blank value", positional, (t) => void (t.components[1].example.body_text = [["Ana", " "]]), ["components.1.example.body_text"]],
  // footer
  ["a footer without text", positional, (t) => void (t.components[2] = { type: "FOOTER" }), ["components.2.text"]],
  ["a footer of 61 characters", positional, (t) => void (t.components[2].text = "x".repeat(61)), ["components.2.text"]],
  ["a footer with a variable", positional, (t) => void (t.components[2].text = "Bye {{1}}"), ["components.2.text"]],
  ["a code expiry outside AUTHENTICATION", positional, (t) => void (t.components[2].code_expiration_minutes = 5), ["components.2.code_expiration_minutes"]],
  // buttons: the component
  ["a BUTTONS component without buttons", positional, (t) => void (t.components[3].buttons = []), ["components.3.buttons"]],
  ["eleven buttons", positional, (t) => void (t.components[3].buttons = quickReplies(11)), ["components.3.buttons"]],
  ["a button that is not an object", positional, (t) => void (buttonsOf(t)[0] = "Yes"), ["components.3.buttons.0"]],
  ["a button of an unknown type", positional, (t) => void (buttonsOf(t)[0].type = "CATALOG"), ["components.3.buttons.0.type"]],
  [
    "three URL buttons",
    positional,
    (t) => void buttonsOf(t).push({ type: "URL", text: "A", url: "https://a.example" }, { type: "URL", text: "B", url: "https://b.example" }),
    ["components.3.buttons"],
  ],
  [
    "two PHONE_NUMBER buttons",
    positional,
    (t) => void buttonsOf(t).push({ type: "PHONE_NUMBER", text: "Call", phone_number: "+447700900123" }),
    ["components.3.buttons"],
  ],
  ["two COPY_CODE buttons", positional, (t) => void buttonsOf(t).push({ type: "COPY_CODE", example: "MORE5" }), ["components.3.buttons"]],
  [
    "quick replies on both sides of the other buttons",
    positional,
    (t) => void buttonsOf(t).push({ type: "QUICK_REPLY", text: "Later" }),
    ["components.3.buttons"],
  ],
  // buttons: labels
  ["a button without label", positional, (t) => void delete buttonsOf(t)[0].text, ["components.3.buttons.0.text"]],
  ["a button label of 26 characters", positional, (t) => void (buttonsOf(t)[1].text = "x".repeat(26)), ["components.3.buttons.1.text"]],
  ["a button label with a variable", positional, (t) => void (buttonsOf(t)[0].text = "Yes {{1}}"), ["components.3.buttons.0.text"]],
  // URL
  ["a URL button without url", positional, (t) => void delete buttonsOf(t)[2].url, ["components.3.buttons.2.url"]],
  ["a URL that is not http(s)", positional, (t) => void Object.assign(buttonsOf(t)[2], { url: "ftp://example.com/{{1}}" }), ["components.3.buttons.2.url"]],
  ["a URL that is not a URL", positional, (t) => void Object.assign(buttonsOf(t)[2], { url: "track my order" }), ["components.3.buttons.2.url"]],
  ["a URL of 2001 characters", positional, (t) => void (buttonsOf(t)[2].url = `https://example.com/${"x".repeat(1977)}{{1}}`), ["components.3.buttons.2.url"]],
  ["a URL with two variables", positional, (t) => void (buttonsOf(t)[2].url = "https://example.com/{{1}}/{{2}}"), ["components.3.buttons.2.url"]],
  ["a URL variable before the end", positional, (t) => void (buttonsOf(t)[2].url = "https://example.com/{{1}}/track"), ["components.3.buttons.2.url"]],
  ["a URL variable other than {{1}}", positional, (t) => void (buttonsOf(t)[2].url = "https://example.com/{{order}}"), ["components.3.buttons.2.url"]],
  ["a URL variable without example", positional, (t) => void delete buttonsOf(t)[2].example, ["components.3.buttons.2.example"]],
  ["a URL example that is not a list", positional, (t) => void (buttonsOf(t)[2].example = "https://example.com/track/A1"), ["components.3.buttons.2.example"]],
  // PHONE_NUMBER
  ["a phone button without number", positional, (t) => void delete buttonsOf(t)[3].phone_number, ["components.3.buttons.3.phone_number"]],
  ["a phone number with letters", positional, (t) => void (buttonsOf(t)[3].phone_number = "+1 555 CALL"), ["components.3.buttons.3.phone_number"]],
  ["a phone number of 16 digits", positional, (t) => void (buttonsOf(t)[3].phone_number = "+1234567890123456"), ["components.3.buttons.3.phone_number"]],
  // COPY_CODE
  ["a copy-code button without sample code", positional, (t) => void delete buttonsOf(t)[4].example, ["components.3.buttons.4.example"]],
  ["a sample code of 16 characters", positional, (t) => void (buttonsOf(t)[4].example = "x".repeat(16)), ["components.3.buttons.4.example"]],
  // OTP outside AUTHENTICATION
  [
    "an OTP button in a MARKETING template",
    positional,
    (t) => void (buttonsOf(t)[4] = { type: "OTP", otp_type: "COPY_CODE" }),
    ["components.3.buttons.4.type"],
  ],
  // FLOW
  ["a FLOW button without flow_id or flow_name", positional, (t) => void delete flow(t).flow_name, ["components.3.buttons.5.flow_id"]],
  ["a FLOW button with both flow_id and flow_name", positional, (t) => void (flow(t).flow_id = "flow_01J"), ["components.3.buttons.5.flow_id"]],
  ["a FLOW button with an empty flow_name", positional, (t) => void (flow(t).flow_name = ""), ["components.3.buttons.5.flow_name"]],
  ["a FLOW button with flow_json", positional, (t) => void (flow(t).flow_json = "{}"), ["components.3.buttons.5.flow_json"]],
  ["a FLOW button with an unknown flow_action", positional, (t) => void (flow(t).flow_action = "open"), ["components.3.buttons.5.flow_action"]],
  ["a navigate FLOW button without navigate_screen", positional, (t) => void delete flow(t).navigate_screen, ["components.3.buttons.5.navigate_screen"]],
  [
    "an explicit navigate without navigate_screen",
    positional,
    (t) => void Object.assign(flow(t), { flow_action: "navigate", navigate_screen: " " }),
    ["components.3.buttons.5.navigate_screen"],
  ],
  ["a FLOW button without label", positional, (t) => void delete flow(t).text, ["components.3.buttons.5.text"]],
  // NAMED
  [
    "a positional variable in a NAMED template",
    named,
    (t) => void (t.components[1].text = "Order {{1}} for {{first_name}} on {{day}} {{order_id}}"),
    ["components.1.text"],
  ],
  [
    "a named variable starting with a digit",
    named,
    (t) => void (t.components[1].text = "Order {{1st}} {{order_id}} {{first_name}} {{day}}"),
    ["components.1.text"],
  ],
  ["named variables without example", named, (t) => void delete t.components[1].example, ["components.1.example"]],
  ["named samples given positionally", named, (t) => void (t.components[1].example = { body_text: [["A-1", "Ana", "Monday"]] }), ["components.1.example"]],
  ["a named sample missing", named, (t) => void t.components[1].example.body_text_named_params.pop(), ["components.1.example.body_text_named_params"]],
  [
    "a sample for a variable the text does not have",
    named,
    (t) => void (t.components[1].example.body_text_named_params[2].param_name = "weekday"),
    ["components.1.example.body_text_named_params", "components.1.example.body_text_named_params.2.param_name"],
  ],
  [
    "a blank named sample",
    named,
    (t) => void (t.components[1].example.body_text_named_params[0].example = ""),
    ["components.1.example.body_text_named_params.0.example"],
  ],
  [
    "a named sample that is not {param_name, example}",
    named,
    (t) => void t.components[1].example.body_text_named_params.push("Ana"),
    ["components.1.example.body_text_named_params.3"],
  ],
  [
    "named samples that are not a list",
    named,
    (t) => void (t.components[1].example.body_text_named_params = { order_id: "A-1" }),
    ["components.1.example.body_text_named_params"],
  ],
  [
    "a named header without its sample",
    named,
    (t) => void (t.components[0].example = { header_text_named_params: [] }),
    ["components.0.example.header_text_named_params"],
  ],
  // AUTHENTICATION
  [
    "a HEADER in an AUTHENTICATION template",
    authentication,
    (t) => void t.components.push({ type: "HEADER", format: "TEXT", text: "Code" }),
    ["components.3.type"],
  ],
  ["a body text in an AUTHENTICATION template", authentication, (t) => void (t.components[0].text = "{{1}} is your code"), ["components.0.text"]],
  [
    "a non-boolean add_security_recommendation",
    authentication,
    (t) => void (t.components[0].add_security_recommendation = "yes"),
    ["components.0.add_security_recommendation"],
  ],
  ["a footer text in an AUTHENTICATION template", authentication, (t) => void (t.components[1].text = "Thanks"), ["components.1.text"]],
  ["a code expiry of 91 minutes", authentication, (t) => void (t.components[1].code_expiration_minutes = 91), ["components.1.code_expiration_minutes"]],
  ["a code expiry of 0 minutes", authentication, (t) => void (t.components[1].code_expiration_minutes = 0), ["components.1.code_expiration_minutes"]],
  ["an AUTHENTICATION template without buttons", authentication, (t) => void t.components.pop(), ["components"]],
  [
    "a quick reply in an AUTHENTICATION template",
    authentication,
    (t) => void (t.components[2].buttons[0] = { type: "QUICK_REPLY", text: "Yes" }),
    ["components.2.buttons.0.type"],
  ],
  ["two OTP buttons", authentication, (t) => void t.components[2].buttons.push({ type: "OTP", otp_type: "COPY_CODE" }), ["components.2.buttons"]],
  ["an OTP button without otp_type", authentication, (t) => void delete t.components[2].buttons[0].otp_type, ["components.2.buttons.0.otp_type"]],
  ["an OTP button label of 26 characters", authentication, (t) => void (t.components[2].buttons[0].text = "x".repeat(26)), ["components.2.buttons.0.text"]],
  [
    "a ONE_TAP button without supported_apps",
    authentication,
    (t) => void (t.components[2].buttons[0] = { type: "OTP", otp_type: "ONE_TAP" }),
    ["components.2.buttons.0.supported_apps"],
  ],
  [
    "a ONE_TAP app with a bad package name and signature hash",
    authentication,
    (t) => void (t.components[2].buttons[0] = { type: "OTP", otp_type: "ONE_TAP", supported_apps: [{ package_name: "app", signature_hash: "short" }] }),
    ["components.2.buttons.0.supported_apps.0.package_name", "components.2.buttons.0.supported_apps.0.signature_hash"],
  ],
  [
    "a ZERO_TAP button without the terms accepted",
    authentication,
    (t) => void (t.components[2].buttons[0] = { type: "OTP", otp_type: "ZERO_TAP", supported_apps: [ANDROID_APP] }),
    ["components.2.buttons.0.zero_tap_terms_accepted"],
  ],
];

describe("validateTemplateComponents", () => {
  it.each(VALID)("accepts %s", (_name, base, change) => {
    const template = base();
    change(template);
    expect(validateTemplateComponents(template).issues).toEqual({});
  });

  it.each(INVALID)("refuses %s", (_name, base, change, paths) => {
    const template = base();
    change(template);
    expect(issuePaths(template)).toEqual([...paths].sort());
  });

  it("tells the user what to fix, naming the limit", () => {
    const template = positional();
    template.components[0].text = "x".repeat(61);
    buttonsOf(template)[2].url = "https://example.com/{{1}}/track";
    const { issues } = validateTemplateComponents(template);
    expect(issues["components.0.text"]).toEqual(["The header is 61 characters; the limit is 60."]);
    expect(issues["components.3.buttons.2.url"]?.[0]).toMatch(/must end the URL/);
  });

  it("counts characters as a person does, not UTF-16 units", () => {
    const template = positional();
    template.components[2].text = "🙂".repeat(60);
    expect(validateTemplateComponents(template).issues).toEqual({});
  });

  it("reports every broken rule at once", () => {
    const template = positional();
    delete template.components[1].example;
    template.components[2].text = "Bye {{1}}";
    buttonsOf(template)[0].text = "";
    expect(issuePaths(template)).toEqual(["components.1.example", "components.2.text", "components.3.buttons.0.text"]);
  });

  it("returns the shape only for a valid template", () => {
    const template = positional();
    expect(validateTemplateComponents(template).shape).toEqual(templateShape(template.components, { parameter_format: "POSITIONAL" }));
    template.components.splice(1, 1);
    expect(validateTemplateComponents(template).shape).toBeNull();
  });
});

describe("templateShape", () => {
  it("lists what each component of a positional template expects, buttons by their index", () => {
    expect(templateShape(positional().components)).toEqual({
      parameter_format: "POSITIONAL",
      header_format: "TEXT",
      variables: {
        header: ["1"],
        body: ["1", "2"],
        buttons: [
          { index: 0, type: "QUICK_REPLY", variables: [] },
          { index: 1, type: "QUICK_REPLY", variables: [] },
          { index: 2, type: "URL", variables: ["1"] },
          { index: 3, type: "PHONE_NUMBER", variables: [] },
          { index: 4, type: "COPY_CODE", variables: ["coupon_code"] },
          { index: 5, type: "FLOW", variables: [] },
        ],
      },
    });
  });

  it("lists named variables once each, in order of first use, and reads NAMED from them", () => {
    const template = named();
    template.components[1].text = "Order {{order_id}} for {{first_name}}, {{first_name}}, on {{day}}.";
    expect(templateShape(template.components)).toEqual({
      parameter_format: "NAMED",
      header_format: "TEXT",
      variables: { header: ["first_name"], body: ["order_id", "first_name", "day"], buttons: [] },
    });
  });

  it("gives an AUTHENTICATION template's preset body and its OTP button the code", () => {
    expect(templateShape(authentication().components, { parameter_format: "POSITIONAL" })).toEqual({
      parameter_format: "POSITIONAL",
      header_format: null,
      variables: { header: [], body: ["1"], buttons: [{ index: 0, type: "OTP", variables: ["1"] }] },
    });
  });

  it("names a media header's kind, with no text variables", () => {
    const components = [
      { type: "header", format: "image", example: { header_handle: ["h"] } },
      { type: "body", text: "Hi" },
    ];
    expect(templateShape(components)).toEqual({ parameter_format: "POSITIONAL", header_format: "IMAGE", variables: { header: [], body: [], buttons: [] } });
  });
});
