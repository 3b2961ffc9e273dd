/**
 * A template send's `components` (POST /messages `template.components`, the provider's send shape)
 * checked against what the stored template expects (TemplateShape): body and header parameter
 * counts, named keys for NAMED templates, media headers, and each button component's index,
 * sub_type and parameter. A mismatch is 422 template_parameters_invalid with these issues
 * (docs/spec/decisions.md "Templates"). Pure; the sender mints flow tokens for needsFlowToken.
 */
import { isRecord } from "@/lib/json";
import { BUTTON_SUB_TYPES, TEMPLATE_LIMITS, addIssue, type Issues, type ShapeButton, type TemplateShape } from "./types";

type SendComponent = Record<string, unknown>;

interface Ctx {
  issues: Issues;
  shape: TemplateShape;
}

const ROOT = "template.components";
/** Kinds a body or text-header value may take; every one of them may carry a parameter_name. */
const TEXT_KINDS = ["text", "currency", "date_time"] as const;

export function checkTemplateParameters(shape: TemplateShape, sendComponents: unknown[] | undefined): { issues: Issues } {
  const issues: Issues = {};
  const ctx: Ctx = { issues, shape };
  if (sendComponents !== undefined && !Array.isArray(sendComponents)) {
    addIssue(issues, ROOT, "Must be an array of components.");
    return { issues };
  }
  const seen = new Map<string, number>();
  (sendComponents ?? []).forEach((component: unknown, i) => {
    const path = `${ROOT}.${i}`;
    if (!isRecord(component)) return addIssue(issues, path, "Each component is an object: {type: header | body | button, parameters}.");
    const type = lowerOf(component.type);
    if (type !== "header" && type !== "body" && type !== "button") return addIssue(issues, `${path}.type`, "One of header, body, button.");
    const index = buttonIndex(component.index);
    const key = type === "button" ? (index === undefined ? undefined : `button ${index}`) : type;
    const first = key === undefined ? undefined : seen.get(key);
    if (first !== undefined) return addIssue(issues, type === "button" ? `${path}.index` : `${path}.type`, `Given twice: ${ROOT}.${first} is the same ${key}.`);
    if (key !== undefined) seen.set(key, i);
    if (type === "body") checkValues(ctx, path, component, shape.variables.body, "body");
    else if (type === "header") checkHeader(ctx, path, component);
    else checkButton(ctx, path, component);
  });
  reportMissing(ctx, seen);
  return { issues };
}

/** The indexes of the template's FLOW buttons. */
export function flowButtonIndexes(shape: TemplateShape): number[] {
  return shape.variables.buttons.filter((button) => button.type === "FLOW").map((button) => button.index);
}

/**
 * The FLOW buttons a send gives no flow_token for (no button component at all, or an action without
 * one): the sender mints a dispatch and token for each.
 */
export function needsFlowToken(sendComponents: unknown[] | undefined, shape: TemplateShape): number[] {
  const components = Array.isArray(sendComponents) ? sendComponents : [];
  return flowButtonIndexes(shape).filter((index) => {
    const given = components.find((c) => isRecord(c) && lowerOf(c.type) === "button" && buttonIndex(c.index) === index);
    const parameter = isRecord(given) && Array.isArray(given.parameters) ? given.parameters[0] : undefined;
    const action = isRecord(parameter) ? parameter.action : undefined;
    return !(isRecord(action) && typeof action.flow_token === "string" && action.flow_token !== "");
  });
}

// ------------------------------------------------------------------------------------ header and body

function checkHeader(ctx: Ctx, path: string, component: SendComponent) {
  const format = ctx.shape.header_format;
  if (format === null) return addIssue(ctx.issues, `${path}.type`, "The template has no header: leave this component out.");
  if (format === "TEXT") return checkValues(ctx, path, component, ctx.shape.variables.header, "header");
  const parameters = component.parameters;
  const kind = format.toLowerCase();
  if (!Array.isArray(parameters) || parameters.length !== 1) {
    return addIssue(ctx.issues, `${path}.parameters`, `The template's ${format} header takes exactly one parameter: [{type: "${kind}", ${kind}: {…}}].`);
  }
  const parameter: unknown = parameters[0];
  const at = `${path}.parameters.0`;
  if (!isRecord(parameter) || parameter.type !== kind) return addIssue(ctx.issues, `${at}.type`, `Must be "${kind}": the template's header is ${format}.`);
  const value = parameter[kind];
  if (kind === "location") {
    const ok = isRecord(value) && typeof value.latitude === "number" && typeof value.longitude === "number";
    if (!ok) addIssue(ctx.issues, `${at}.location`, "Give {latitude, longitude} as numbers, with an optional name and address.");
  } else if (!(isRecord(value) && (nonEmpty(value.link) || nonEmpty(value.id)))) {
    addIssue(ctx.issues, `${at}.${kind}`, `Give the ${kind} as {link: "https://…"} or {id: "<media id>"}.`);
  }
}

/** Body or text-header values: the right count, positional or named as the template was created. */
function checkValues(ctx: Ctx, path: string, component: SendComponent, expected: string[], what: "body" | "header") {
  const parameters = component.parameters;
  const list = expected.map((name) => `{{${name}}}`).join(", ");
  if (expected.length === 0) return addIssue(ctx.issues, `${path}.parameters`, `The template's ${what} has no variables: leave this component out.`);
  if (!Array.isArray(parameters)) return addIssue(ctx.issues, `${path}.parameters`, `Give one parameter per variable: ${list}.`);
  parameters.forEach((parameter: unknown, j) => checkTextValue(ctx, `${path}.parameters.${j}`, parameter));
  if (ctx.shape.parameter_format === "NAMED") return checkNames(ctx, path, parameters, expected, what);
  if (parameters.length !== expected.length) {
    addIssue(
      ctx.issues,
      `${path}.parameters`,
      `The template's ${what} expects ${expected.length} parameter${plural(expected)} (${list}); got ${parameters.length}.`,
    );
  }
}

function checkNames(ctx: Ctx, path: string, parameters: unknown[], expected: string[], what: string) {
  const given = new Set<string>();
  parameters.forEach((parameter: unknown, j) => {
    const name = isRecord(parameter) ? parameter.parameter_name : undefined;
    const at = `${path}.parameters.${j}.parameter_name`;
    if (typeof name !== "string") return addIssue(ctx.issues, at, `Required: the template is NAMED; name one of ${expected.join(", ")}.`);
    if (!expected.includes(name)) return addIssue(ctx.issues, at, `The template's ${what} has no {{${name}}}; its variables are ${expected.join(", ")}.`);
    if (given.has(name)) return addIssue(ctx.issues, at, `{{${name}}} is given twice.`);
    given.add(name);
  });
  const missing = expected.filter((name) => !given.has(name));
  if (missing.length > 0) addIssue(ctx.issues, `${path}.parameters`, `Missing ${missing.map((name) => `{{${name}}}`).join(", ")}.`);
}

function checkTextValue(ctx: Ctx, path: string, parameter: unknown) {
  if (!isRecord(parameter)) return addIssue(ctx.issues, path, 'Each parameter is an object, like {type: "text", text: "…"}.');
  const kind = TEXT_KINDS.find((candidate) => candidate === parameter.type);
  if (!kind) return addIssue(ctx.issues, `${path}.type`, `One of ${TEXT_KINDS.join(", ")}.`);
  if (parameter.parameter_name !== undefined && ctx.shape.parameter_format === "POSITIONAL") {
    addIssue(ctx.issues, `${path}.parameter_name`, "The template's variables are numbered: leave parameter_name out and give the values in order.");
  }
  const value = parameter[kind];
  if (kind === "text" && !nonEmpty(value)) addIssue(ctx.issues, `${path}.text`, "Required: a non-empty string.");
  if (kind === "currency" && !(isRecord(value) && nonEmpty(value.fallback_value) && nonEmpty(value.code) && Number.isInteger(value.amount_1000))) {
    addIssue(ctx.issues, `${path}.currency`, 'Give {fallback_value, code (ISO 4217, like "USD"), amount_1000 (the amount × 1000, a whole number)}.');
  }
  if (kind === "date_time" && !(isRecord(value) && nonEmpty(value.fallback_value))) addIssue(ctx.issues, `${path}.date_time`, "Give {fallback_value}.");
}

// ------------------------------------------------------------------------------------------- buttons

function checkButton(ctx: Ctx, path: string, component: SendComponent) {
  const index = buttonIndex(component.index);
  const buttons = ctx.shape.variables.buttons;
  const range = buttons.length === 0 ? "The template has no buttons." : `Its buttons are 0 to ${buttons.length - 1}.`;
  if (index === undefined) return addIssue(ctx.issues, `${path}.index`, `Required: the button's position, a whole number. ${range}`);
  const button = buttons.find((candidate) => candidate.index === index);
  if (!button) return addIssue(ctx.issues, `${path}.index`, `The template has no button ${index}. ${range}`);
  const expected = BUTTON_SUB_TYPES[button.type];
  if (expected === null)
    return addIssue(ctx.issues, `${path}.index`, `Button ${index} is a ${button.type} button; it takes no parameters: leave this component out.`);
  if (lowerOf(component.sub_type) !== expected) {
    return addIssue(ctx.issues, `${path}.sub_type`, `Button ${index} is a ${button.type} button: use sub_type "${expected}".`);
  }
  if (button.type === "URL" && button.variables.length === 0) {
    return addIssue(ctx.issues, `${path}.index`, `Button ${index}'s URL has no variable: leave this component out.`);
  }
  const parameters = component.parameters;
  if (!Array.isArray(parameters) || parameters.length !== 1) {
    return addIssue(ctx.issues, `${path}.parameters`, `A ${expected} button takes exactly one parameter: [${BUTTON_PARAMETER_FORMS[expected]}].`);
  }
  checkButtonParameter(ctx, `${path}.parameters.0`, parameters[0], button, expected);
}

const BUTTON_PARAMETER_FORMS: Record<string, string> = {
  url: '{type: "text", text: "<the end of the URL>"}',
  quick_reply: '{type: "payload", payload: "…"}',
  copy_code: '{type: "coupon_code", coupon_code: "…"}',
  flow: '{type: "action", action: {flow_token?, flow_action_data?}}',
};

function checkButtonParameter(ctx: Ctx, path: string, parameter: unknown, button: ShapeButton, subType: string) {
  const kind = { url: "text", quick_reply: "payload", copy_code: "coupon_code", flow: "action" }[subType] ?? "";
  if (!isRecord(parameter) || parameter.type !== kind) return addIssue(ctx.issues, `${path}.type`, `Must be "${kind}": ${BUTTON_PARAMETER_FORMS[subType]}.`);
  const value = parameter[kind];
  if (subType === "flow") return checkFlowAction(ctx, path, parameter);
  if (!nonEmpty(value)) return addIssue(ctx.issues, `${path}.${kind}`, "Required: a non-empty string.");
  if (button.type === "COPY_CODE" && [...value].length > TEMPLATE_LIMITS.couponCode) {
    addIssue(ctx.issues, `${path}.${kind}`, `A code has at most ${TEMPLATE_LIMITS.couponCode} characters.`);
  }
}

function checkFlowAction(ctx: Ctx, path: string, parameter: SendComponent) {
  const action = parameter.action;
  if (!isRecord(action)) return addIssue(ctx.issues, `${path}.action`, "Give {flow_token?, flow_action_data?}, or {} to let svc mint the token.");
  for (const key of Object.keys(action)) {
    if (key !== "flow_token" && key !== "flow_action_data")
      addIssue(ctx.issues, `${path}.action.${key}`, "Not a flow action field: only flow_token and flow_action_data.");
  }
  if (action.flow_token !== undefined && !nonEmpty(action.flow_token)) {
    addIssue(ctx.issues, `${path}.action.flow_token`, "A non-empty string, or leave it out to let svc mint one.");
  }
  if (action.flow_action_data !== undefined && !isRecord(action.flow_action_data)) {
    addIssue(ctx.issues, `${path}.action.flow_action_data`, "An object: the data the flow's first screen receives.");
  }
}

// ------------------------------------------------------------------------------------------- missing

/** Components the template needs a value for that the send left out. FLOW buttons are minted instead. */
function reportMissing(ctx: Ctx, seen: Map<string, number>) {
  const { variables, header_format: headerFormat } = ctx.shape;
  if (variables.body.length > 0 && !seen.has("body")) {
    addIssue(ctx.issues, ROOT, `The template's body expects ${describe(variables.body)}: add {type: "body", parameters: [...]}.`);
  }
  const headerNeeded = headerFormat === "TEXT" ? variables.header.length > 0 : headerFormat !== null;
  if (headerNeeded && !seen.has("header")) {
    const what = headerFormat === "TEXT" ? describe(variables.header) : `one ${String(headerFormat).toLowerCase()} parameter`;
    addIssue(ctx.issues, ROOT, `The template's header expects ${what}: add {type: "header", parameters: [...]}.`);
  }
  for (const button of variables.buttons) {
    if (button.variables.length === 0 || button.type === "FLOW" || seen.has(`button ${button.index}`)) continue;
    const subType = BUTTON_SUB_TYPES[button.type] ?? "";
    addIssue(
      ctx.issues,
      ROOT,
      `Button ${button.index} (${button.type}) needs a value: add {type: "button", sub_type: "${subType}", index: ${button.index}, parameters: [${BUTTON_PARAMETER_FORMS[subType]}]}.`,
    );
  }
}

function describe(names: string[]): string {
  return `${names.length} parameter${plural(names)} (${names.map((name) => `{{${name}}}`).join(", ")})`;
}

// ------------------------------------------------------------------------------------------- helpers

/** The provider takes a button index as a number or a digit string. */
function buttonIndex(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

function lowerOf(value: unknown): string | undefined {
  return typeof value === "string" ? value.toLowerCase() : undefined;
}

function nonEmpty(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

function plural(list: unknown[]): string {
  return list.length === 1 ? "" : "s";
}
