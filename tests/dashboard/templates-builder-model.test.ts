import { describe, expect, it } from "vitest";
import { TemplateCreateRequest } from "@/lib/api/schemas/templates";
import { TEMPLATE_STATUSES as SERVER_STATUSES } from "@/lib/db/schema/templates";
import {
  FLOW_ACTIONS as SERVER_FLOW_ACTIONS,
  HEADER_FORMATS as SERVER_HEADERS,
  OTP_TYPES as SERVER_OTP,
  TEMPLATE_CATEGORIES,
  TEMPLATE_LIMITS,
} from "@/lib/shared/templates/types";
import { validateTemplateComponents } from "@/lib/shared/templates/validate";
import { buildRequest, emptyDraft, newButton, withCategory, type TemplateDraft } from "@/components/templates/model/draft";
import { fieldPaths, placeIssues } from "@/components/templates/model/issues";
import { CATEGORIES, FLOW_ACTIONS, HEADER_FORMATS, LIMITS, OTP_TYPES, TEMPLATE_STATUSES } from "@/components/templates/model/vocabulary";

/**
 * The template builder's request building (components/templates/model/draft.ts) judged by the
 * server's own rules: what the form makes passes the wire schema and validateTemplateComponents, and
 * the server's issue paths land on the fields that made them.
 */

function serverVerdict(draft: TemplateDraft) {
  const { request, at } = buildRequest(draft);
  const parsed = TemplateCreateRequest.safeParse(request);
  const { issues, shape } = validateTemplateComponents({
    category: request.category,
    parameter_format: request.parameter_format,
    components: request.components,
  });
  return { request, at, parsed, issues, shape };
}

function orderDraft(): TemplateDraft {
  const draft = emptyDraft("ch_1");
  return {
    ...draft,
    name: "order_update",
    header: { format: "TEXT", text: "Order {{1}}", handle: "", examples: { "1": "A-123" } },
    body: { text: "Hi {{1}}, your order {{2}} has shipped. Thanks!", examples: { "1": "Ana", "2": "A-123" }, addSecurityRecommendation: true },
    footer: { text: "Reply STOP to opt out", codeExpirationMinutes: "" },
    buttons: [
      { ...newButton("QUICK_REPLY", "a"), text: "Thanks" },
      { ...newButton("QUICK_REPLY", "b"), text: "Where is it?" },
      { ...newButton("URL", "c"), text: "Track", url: "https://example.com/track/{{1}}", urlExample: "https://example.com/track/A-123" },
      { ...newButton("PHONE_NUMBER", "d"), text: "Call us", phoneNumber: "+1 (555) 005-1310" },
      { ...newButton("COPY_CODE", "e"), code: "SUMMER25" },
      { ...newButton("FLOW", "f"), text: "Rate us", flowId: "flow_1", navigateScreen: "WELCOME" },
    ],
  };
}

describe("the vocabulary copies", () => {
  it("match the server's lists and limits", () => {
    expect([...CATEGORIES]).toEqual([...TEMPLATE_CATEGORIES]);
    expect([...HEADER_FORMATS]).toEqual([...SERVER_HEADERS]);
    expect([...OTP_TYPES]).toEqual([...SERVER_OTP]);
    expect([...FLOW_ACTIONS]).toEqual([...SERVER_FLOW_ACTIONS]);
    expect([...TEMPLATE_STATUSES].sort()).toEqual([...SERVER_STATUSES].sort());
    for (const [key, value] of Object.entries(LIMITS)) expect(TEMPLATE_LIMITS[key as keyof typeof TEMPLATE_LIMITS]).toBe(value);
  });
});

describe("buildRequest", () => {
  it("turns a full positional draft into components the server accepts, in HEADER, BODY, FOOTER, BUTTONS order", () => {
    const { request, at, parsed, issues, shape } = serverVerdict(orderDraft());
    expect(parsed.success).toBe(true);
    expect(issues).toEqual({});
    expect(at).toEqual({ HEADER: 0, BODY: 1, FOOTER: 2, BUTTONS: 3 });
    expect(request.components[0]).toEqual({ type: "HEADER", format: "TEXT", text: "Order {{1}}", example: { header_text: ["A-123"] } });
    expect(request.components[1]).toMatchObject({ type: "BODY", example: { body_text: [["Ana", "A-123"]] } });
    const buttons = (request.components[3] as { buttons: Array<Record<string, unknown>> }).buttons;
    expect(buttons[2]).toEqual({ type: "URL", text: "Track", url: "https://example.com/track/{{1}}", example: ["https://example.com/track/A-123"] });
    expect(buttons[3]).toEqual({ type: "PHONE_NUMBER", text: "Call us", phone_number: "+15550051310" });
    expect(buttons[4]).toEqual({ type: "COPY_CODE", example: "SUMMER25" });
    expect(buttons[5]).toEqual({ type: "FLOW", text: "Rate us", flow_id: "flow_1", flow_action: "navigate", navigate_screen: "WELCOME" });
    expect(shape?.variables.body).toEqual(["1", "2"]);
  });

  it("writes NAMED examples as named params, and the server accepts them", () => {
    const draft: TemplateDraft = {
      ...emptyDraft("ch_1"),
      name: "welcome",
      parameterFormat: "NAMED",
      body: { text: "Hello {{first_name}}, welcome to {{shop}}!", examples: { first_name: "Ana", shop: "Acme" }, addSecurityRecommendation: true },
    };
    const { request, issues, at } = serverVerdict(draft);
    expect(issues).toEqual({});
    expect(at).toEqual({ BODY: 0 });
    expect(request.components[0]).toEqual({
      type: "BODY",
      text: "Hello {{first_name}}, welcome to {{shop}}!",
      example: {
        body_text_named_params: [
          { param_name: "first_name", example: "Ana" },
          { param_name: "shop", example: "Acme" },
        ],
      },
    });
  });

  it("builds an AUTHENTICATION template from the preset body, the expiry footer and one OTP button", () => {
    let draft: TemplateDraft = { ...emptyDraft("ch_1"), name: "login_code", body: { text: "left over", examples: {}, addSecurityRecommendation: true } };
    draft = withCategory({ ...draft, header: { ...draft.header, format: "TEXT", text: "Hi" } }, "AUTHENTICATION", "otp");
    draft = { ...draft, footer: { text: "ignored", codeExpirationMinutes: "10" } };
    const { request, issues } = serverVerdict(draft);
    expect(issues).toEqual({});
    expect(request.components).toEqual([
      { type: "BODY", add_security_recommendation: true },
      { type: "FOOTER", code_expiration_minutes: 10 },
      { type: "BUTTONS", buttons: [{ type: "OTP", otp_type: "COPY_CODE" }] },
    ]);
  });

  it("drops the OTP button when the category leaves AUTHENTICATION, and keeps the others across other changes", () => {
    const auth = withCategory(emptyDraft(), "AUTHENTICATION", "k1");
    expect(auth.buttons.map((b) => b.type)).toEqual(["OTP"]);
    expect(withCategory(auth, "MARKETING", "k2").buttons).toEqual([]);
    const order = orderDraft();
    expect(withCategory(order, "MARKETING", "k3").buttons).toEqual(order.buttons);
  });

  it("sends empty fields as they are, so the server names them", () => {
    const draft = { ...emptyDraft("ch_1"), name: "x", buttons: [newButton("URL", "u")] };
    const { issues, at } = serverVerdict(draft);
    expect(at).toEqual({ BODY: 0, BUTTONS: 1 });
    expect(issues["components.0.text"]).toBeDefined();
    expect(issues["components.1.buttons.0.text"]).toBeDefined();
    expect(issues["components.1.buttons.0.url"]).toBeDefined();
  });
});

describe("placeIssues", () => {
  it("puts each server issue on the builder field of its path, and the rest aside", () => {
    const draft = { ...orderDraft(), body: { ...orderDraft().body, examples: {} } };
    const { at } = buildRequest(draft);
    const server = {
      name: ["Lower-case letters, digits and '_'."],
      "components.1.text": ["Body problem"],
      "components.1.example.body_text": ["Give exactly 2 non-empty samples"],
      "components.3.buttons.2.url": ["URL problem"],
      "components.3.buttons": ["Keep the QUICK_REPLY buttons together"],
      "components.3.buttons.5.flow_id": ["No flow with id 'flow_1' in this project."],
      "components.0.type": ["No header here"],
      components: ["A BODY component is required."],
      "components.9.text": ["A section this draft does not have"],
    };
    const placed = placeIssues(server, fieldPaths(draft, at));
    expect(placed.byField).toEqual({
      name: ["Lower-case letters, digits and '_'."],
      "components.1.text": ["Body problem"],
      "components.1.example": ["Give exactly 2 non-empty samples"],
      "components.3.buttons.2.url": ["URL problem"],
      "components.3.buttons": ["Keep the QUICK_REPLY buttons together"],
      "components.3.buttons.5.flow_id": ["No flow with id 'flow_1' in this project."],
      "components.0": ["No header here"],
    });
    expect(placed.rest).toEqual([
      { path: "components", messages: ["A BODY component is required."] },
      { path: "components.9.text", messages: ["A section this draft does not have"] },
    ]);
  });

  it("places the real validator's issues for a body without examples under that body", () => {
    const draft = { ...orderDraft(), body: { ...orderDraft().body, examples: {} } };
    const { issues, at } = serverVerdict(draft);
    expect(Object.keys(issues).length).toBeGreaterThan(0);
    const placed = placeIssues(issues, fieldPaths(draft, at));
    expect(placed.rest).toEqual([]);
    expect(Object.keys(placed.byField)).toEqual(["components.1.example"]);
  });
});
