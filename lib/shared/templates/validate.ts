/**
 * The rules of a template create request (docs/spec/decisions.md "Templates"), plus the provider's
 * published component rules that decisions.md leaves open: button labels ≤ 25, URL ≤ 2000 with one
 * variable at its end, at most 2 URL / 1 PHONE_NUMBER / 1 COPY_CODE button, quick replies grouped,
 * media headers with a sample handle, and AUTHENTICATION templates built from the provider's preset
 * text (no HEADER, no body or footer text, one OTP button). The provider does not require an order of
 * components, so none is checked. Pure: flow_id / flow_name are checked for shape only; the caller
 * resolves them against the project.
 */
import { isRecord } from "@/lib/json";
import {
  BUTTON_TYPES,
  COMPONENT_TYPES,
  HEADER_FORMATS,
  addIssue,
  upper,
  type ButtonType,
  type ComponentType,
  type Issues,
  type ParameterFormat,
  type ShapeButton,
  type TemplateCategory,
  type TemplateShape,
} from "./types";
import { POSITIONAL_NAME, oneOf, variablesOf, type Component, type Ctx } from "./template-text";
import { COMPONENT_CHECKS } from "./component-rules";

export interface TemplateComponentsInput {
  category: TemplateCategory;
  parameter_format?: ParameterFormat;
  components: unknown[];
}

/**
 * Every problem of a template's components, keyed by request path, and on success the shape sends
 * are checked against (shape is null while there are issues).
 */
export function validateTemplateComponents(input: TemplateComponentsInput): { issues: Issues; shape: TemplateShape | null } {
  const issues: Issues = {};
  const ctx: Ctx = { issues, category: input.category, format: input.parameter_format ?? "POSITIONAL" };
  const { components } = input;
  if (!Array.isArray(components) || components.length === 0) {
    addIssue(issues, "components", "Give at least one component; a BODY is required.");
    return { issues, shape: null };
  }
  const firstAt = new Map<ComponentType, number>();
  components.forEach((component, i) => {
    const path = `components.${i}`;
    if (!isRecord(component)) return addIssue(issues, path, "Each component is an object with a type: HEADER, BODY, FOOTER or BUTTONS.");
    const type = oneOf(COMPONENT_TYPES, upper(component.type));
    if (!type) return addIssue(issues, `${path}.type`, `One of ${COMPONENT_TYPES.join(", ")}.`);
    const first = firstAt.get(type);
    if (first !== undefined) {
      const fix = type === "BUTTONS" ? "Put all the buttons in that one." : "Remove one of them.";
      return addIssue(issues, `${path}.type`, `A template has one ${type} component and components.${first} is one already. ${fix}`);
    }
    firstAt.set(type, i);
    COMPONENT_CHECKS[type](ctx, component, path);
  });
  if (!firstAt.has("BODY")) addIssue(issues, "components", "A BODY component is required.");
  if (ctx.category === "AUTHENTICATION" && !firstAt.has("BUTTONS")) {
    addIssue(issues, "components", "AUTHENTICATION templates need a BUTTONS component with one OTP button.");
  }
  const valid = Object.keys(issues).length === 0;
  return { issues, shape: valid ? templateShape(components, { parameter_format: ctx.format }) : null };
}

/**
 * What each component of a (valid) template expects from a send. Without parameter_format it is
 * read from the variables: any named one makes the template NAMED. An AUTHENTICATION template's
 * preset body carries the code as {{1}}, which the OTP button repeats.
 */
export function templateShape(components: unknown[], options: { parameter_format?: ParameterFormat } = {}): TemplateShape {
  const find = (type: ComponentType) => components.find((c): c is Component => isRecord(c) && upper(c.type) === type);
  const header = find("HEADER");
  const body = find("BODY");
  const buttonList = find("BUTTONS")?.buttons;
  const buttons: ShapeButton[] = (Array.isArray(buttonList) ? buttonList : []).flatMap((button: unknown, index) => {
    const type = isRecord(button) ? oneOf(BUTTON_TYPES, upper(button.type)) : undefined;
    return type && isRecord(button) ? [{ index, type, variables: buttonVariables(type, button) }] : [];
  });
  const headerFormat = header ? (oneOf(HEADER_FORMATS, upper(header.format)) ?? null) : null;
  const headerVariables = headerFormat === "TEXT" ? variablesOf(header?.text) : [];
  const hasOtp = buttons.some((b) => b.type === "OTP");
  const bodyVariables = typeof body?.text === "string" ? variablesOf(body.text) : hasOtp ? ["1"] : [];
  const named = [...headerVariables, ...bodyVariables].some((name) => !POSITIONAL_NAME.test(name));
  return {
    parameter_format: options.parameter_format ?? (named ? "NAMED" : "POSITIONAL"),
    header_format: headerFormat,
    variables: { header: headerVariables, body: bodyVariables, buttons },
  };
}

function buttonVariables(type: ButtonType, button: Component): string[] {
  if (type === "URL") return variablesOf(button.url);
  if (type === "COPY_CODE") return ["coupon_code"];
  if (type === "OTP") return ["1"];
  return [];
}
