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
  FLOW_ACTIONS,
  HEADER_FORMATS,
  MEDIA_HEADER_FORMATS,
  OTP_TYPES,
  TEMPLATE_LIMITS as LIMITS,
  addIssue,
  upper,
  type ButtonType,
  type ComponentType,
  type HeaderFormat,
  type Issues,
  type ParameterFormat,
  type ShapeButton,
  type TemplateCategory,
  type TemplateShape,
} from "./types";
import {
  PLACEHOLDER,
  POSITIONAL_NAME,
  checkExamples,
  checkText,
  checkVariables,
  isHttpUrl,
  lower,
  nonBlank,
  oneOf,
  placeholders,
  variablesOf,
  type Component,
  type Ctx,
} from "./template-text";

export interface TemplateComponentsInput {
  category: TemplateCategory;
  parameter_format?: ParameterFormat;
  components: unknown[];
}

// E.164 digits, the leading "+" optional because the provider's own examples leave it out.
const PHONE_NUMBER = /^\+?[1-9]\d{1,14}$/;
const PACKAGE_NAME = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
const SIGNATURE_HASH = /^[A-Za-z0-9+/=]{11}$/;

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

// ------------------------------------------------------------------------------------------ components

const COMPONENT_CHECKS: Record<ComponentType, (ctx: Ctx, component: Component, path: string) => void> = {
  HEADER: checkHeader,
  BODY: checkBody,
  FOOTER: checkFooter,
  BUTTONS: checkButtons,
};

function checkHeader(ctx: Ctx, component: Component, path: string) {
  if (ctx.category === "AUTHENTICATION") {
    return addIssue(ctx.issues, `${path}.type`, "AUTHENTICATION templates have no HEADER: the provider writes their text. Remove this component.");
  }
  const format = oneOf(HEADER_FORMATS, upper(component.format));
  if (!format) return addIssue(ctx.issues, `${path}.format`, `One of ${HEADER_FORMATS.join(", ")}.`);
  if (format === "TEXT") {
    const text = checkText(ctx, `${path}.text`, component.text, "The header", LIMITS.headerText);
    if (text === undefined) return;
    const names = checkVariables(ctx, `${path}.text`, text);
    if (names.length > LIMITS.headerVariables) {
      addIssue(ctx.issues, `${path}.text`, `A text header holds at most one variable; this one has ${names.length}. Move the others to the body.`);
    }
    return checkExamples(ctx, path, component, names, "header");
  }
  if (MEDIA_HEADER_FORMATS.has(format)) checkMediaExample(ctx, path, component, format);
}

function checkMediaExample(ctx: Ctx, path: string, component: Component, format: HeaderFormat) {
  const handles = isRecord(component.example) ? component.example.header_handle : undefined;
  if (Array.isArray(handles) && handles.length > 0 && handles.every(nonBlank)) return;
  addIssue(
    ctx.issues,
    `${path}.example.header_handle`,
    `Required: a ${format} header needs a sample for review, example.header_handle: ["<handle>"], the handle of a file uploaded with the provider's resumable upload.`,
  );
}

function checkBody(ctx: Ctx, component: Component, path: string) {
  if (ctx.category === "AUTHENTICATION") {
    if (component.text !== undefined) {
      addIssue(ctx.issues, `${path}.text`, 'AUTHENTICATION templates use the provider\'s preset text ("<code> is your verification code."): remove text.');
    }
    if (component.add_security_recommendation !== undefined && typeof component.add_security_recommendation !== "boolean") {
      addIssue(ctx.issues, `${path}.add_security_recommendation`, "true or false.");
    }
    return;
  }
  const text = checkText(ctx, `${path}.text`, component.text, "The body", LIMITS.bodyText);
  if (text === undefined) return;
  checkExamples(ctx, path, component, checkVariables(ctx, `${path}.text`, text), "body");
}

function checkFooter(ctx: Ctx, component: Component, path: string) {
  const minutes = component.code_expiration_minutes;
  const { min, max } = LIMITS.codeExpirationMinutes;
  if (ctx.category === "AUTHENTICATION") {
    if (component.text !== undefined) addIssue(ctx.issues, `${path}.text`, "AUTHENTICATION footers are preset: remove text and set code_expiration_minutes.");
    if (minutes !== undefined && !(Number.isInteger(minutes) && (minutes as number) >= min && (minutes as number) <= max)) {
      addIssue(ctx.issues, `${path}.code_expiration_minutes`, `A whole number of minutes, ${min} to ${max}.`);
    }
    return;
  }
  if (minutes !== undefined)
    addIssue(ctx.issues, `${path}.code_expiration_minutes`, "Only AUTHENTICATION templates have a code expiry; write this footer as text.");
  const text = checkText(ctx, `${path}.text`, component.text, "The footer", LIMITS.footerText);
  if (text !== undefined && placeholders(text).length > 0) addIssue(ctx.issues, `${path}.text`, "A footer cannot hold variables: move them to the body.");
}

// ------------------------------------------------------------------------------------------- buttons

function checkButtons(ctx: Ctx, component: Component, path: string) {
  const buttons = component.buttons;
  if (!Array.isArray(buttons) || buttons.length === 0) return addIssue(ctx.issues, `${path}.buttons`, `Give 1 to ${LIMITS.buttons} buttons.`);
  if (buttons.length > LIMITS.buttons) addIssue(ctx.issues, `${path}.buttons`, `At most ${LIMITS.buttons} buttons; found ${buttons.length}.`);
  const types = buttons.map((button: unknown, j) => checkButton(ctx, button, `${path}.buttons.${j}`));
  checkButtonMix(ctx, types, `${path}.buttons`);
}

function checkButton(ctx: Ctx, button: unknown, path: string): ButtonType | undefined {
  if (!isRecord(button)) return void addIssue(ctx.issues, path, "Each button is an object with a type.");
  const type = oneOf(BUTTON_TYPES, upper(button.type));
  if (!type) return void addIssue(ctx.issues, `${path}.type`, `One of ${BUTTON_TYPES.join(", ")}.`);
  if (type === "OTP" && ctx.category !== "AUTHENTICATION") {
    addIssue(ctx.issues, `${path}.type`, "OTP buttons belong to AUTHENTICATION templates only; a COPY_CODE button lets the customer copy a code.");
  } else if (type !== "OTP" && ctx.category === "AUTHENTICATION") {
    addIssue(ctx.issues, `${path}.type`, "AUTHENTICATION templates take one OTP button and no other kind.");
  }
  BUTTON_CHECKS[type](ctx, button, path);
  return type;
}

const BUTTON_CHECKS: Record<ButtonType, (ctx: Ctx, button: Component, path: string) => void> = {
  QUICK_REPLY: (ctx, button, path) => checkLabel(ctx, button, path),
  URL: checkUrlButton,
  PHONE_NUMBER: checkPhoneButton,
  COPY_CODE: checkCopyCodeButton,
  OTP: checkOtpButton,
  FLOW: checkFlowButton,
};

function checkLabel(ctx: Ctx, button: Component, path: string, required = true) {
  const text = checkText(ctx, `${path}.text`, button.text, "The button label", LIMITS.buttonText, required);
  if (text !== undefined && placeholders(text).length > 0) addIssue(ctx.issues, `${path}.text`, "A button label cannot hold variables.");
}

function checkUrlButton(ctx: Ctx, button: Component, path: string) {
  checkLabel(ctx, button, path);
  const url = button.url;
  if (!nonBlank(url)) return addIssue(ctx.issues, `${path}.url`, "Required: the https:// address the button opens.");
  const length = [...url].length;
  if (length > LIMITS.url) addIssue(ctx.issues, `${path}.url`, `The URL is ${length} characters; the limit is ${LIMITS.url}.`);
  if (!isHttpUrl(url.replace(PLACEHOLDER, "x"))) addIssue(ctx.issues, `${path}.url`, "Must be an http(s) URL, like https://example.com/orders/{{1}}.");
  const variables = placeholders(url);
  if (variables.length === 0) return;
  if (variables.length > 1) return addIssue(ctx.issues, `${path}.url`, "A URL holds at most one variable, at its end.");
  if (variables[0] !== "1") addIssue(ctx.issues, `${path}.url`, "A URL's variable is written {{1}}, whatever the template's parameter_format.");
  else if (!url.endsWith("{{1}}"))
    addIssue(ctx.issues, `${path}.url`, "The variable must end the URL (https://example.com/orders/{{1}}): a send appends its value there.");
  const example = button.example;
  if (!(Array.isArray(example) && example.length === 1 && nonBlank(example[0]))) {
    addIssue(ctx.issues, `${path}.example`, 'Required with a URL variable: one sample of the full URL, like ["https://example.com/orders/A123"].');
  }
}

function checkPhoneButton(ctx: Ctx, button: Component, path: string) {
  checkLabel(ctx, button, path);
  if (typeof button.phone_number === "string" && PHONE_NUMBER.test(button.phone_number)) return;
  addIssue(ctx.issues, `${path}.phone_number`, "Required: the number to call, with its country code, like +15550051310 (E.164, up to 15 digits).");
}

function checkCopyCodeButton(ctx: Ctx, button: Component, path: string) {
  const example = button.example;
  if (nonBlank(example) && [...example].length <= LIMITS.couponCode) return;
  addIssue(ctx.issues, `${path}.example`, `Required: a sample code of 1 to ${LIMITS.couponCode} characters, like "SUMMER25".`);
}

function checkOtpButton(ctx: Ctx, button: Component, path: string) {
  const otpType = oneOf(OTP_TYPES, upper(button.otp_type));
  if (!otpType) addIssue(ctx.issues, `${path}.otp_type`, `One of ${OTP_TYPES.join(", ")}.`);
  checkLabel(ctx, button, path, false);
  if (button.autofill_text !== undefined) checkText(ctx, `${path}.autofill_text`, button.autofill_text, "The autofill label", LIMITS.buttonText);
  if (otpType === "ONE_TAP" || otpType === "ZERO_TAP") checkSupportedApps(ctx, button.supported_apps, `${path}.supported_apps`);
  if (otpType === "ZERO_TAP" && button.zero_tap_terms_accepted !== true) {
    addIssue(ctx.issues, `${path}.zero_tap_terms_accepted`, "Must be true: zero-tap templates need the provider's zero-tap terms accepted.");
  }
}

function checkSupportedApps(ctx: Ctx, apps: unknown, path: string) {
  if (!Array.isArray(apps) || apps.length === 0 || apps.length > LIMITS.supportedApps) {
    return addIssue(ctx.issues, path, `Required for ONE_TAP and ZERO_TAP: 1 to ${LIMITS.supportedApps} Android apps, [{package_name, signature_hash}].`);
  }
  apps.forEach((app: unknown, k) => {
    const entry = isRecord(app) ? app : {};
    const pkg = entry.package_name;
    if (typeof pkg !== "string" || !PACKAGE_NAME.test(pkg) || pkg.length > LIMITS.packageName) {
      addIssue(ctx.issues, `${path}.${k}.package_name`, `An Android package name like com.example.app (up to ${LIMITS.packageName} characters).`);
    }
    if (typeof entry.signature_hash !== "string" || !SIGNATURE_HASH.test(entry.signature_hash)) {
      addIssue(ctx.issues, `${path}.${k}.signature_hash`, "Your app's 11-character signing key hash (letters, digits, +, / or =).");
    }
  });
}

function checkFlowButton(ctx: Ctx, button: Component, path: string) {
  checkLabel(ctx, button, path);
  if (button.flow_json !== undefined) {
    addIssue(ctx.issues, `${path}.flow_json`, "Not accepted: create the flow in this project (POST /flows) and name it with flow_id or flow_name.");
  }
  const hasId = button.flow_id !== undefined;
  if (hasId === (button.flow_name !== undefined)) {
    const message = hasId ? "Give flow_id or flow_name, not both." : "Required: the flow_id or flow_name of one of this project's flows.";
    addIssue(ctx.issues, `${path}.flow_id`, message);
  } else if (!nonBlank(hasId ? button.flow_id : button.flow_name)) {
    addIssue(ctx.issues, `${path}.${hasId ? "flow_id" : "flow_name"}`, "Must be a non-empty string.");
  }
  const action = button.flow_action === undefined ? "navigate" : oneOf(FLOW_ACTIONS, lower(button.flow_action));
  if (!action) return addIssue(ctx.issues, `${path}.flow_action`, "navigate or data_exchange (navigate when left out).");
  if (action === "navigate" && !nonBlank(button.navigate_screen)) {
    addIssue(ctx.issues, `${path}.navigate_screen`, "Required with flow_action navigate: the id of the screen the button opens.");
  }
}

/** The provider's combination rules, checked over the kinds the buttons turned out to be. */
function checkButtonMix(ctx: Ctx, types: Array<ButtonType | undefined>, path: string) {
  const caps: Array<[ButtonType, number]> = [
    ["URL", LIMITS.urlButtons],
    ["PHONE_NUMBER", LIMITS.phoneNumberButtons],
    ["COPY_CODE", LIMITS.copyCodeButtons],
  ];
  for (const [type, cap] of caps) {
    const count = types.filter((t) => t === type).length;
    if (count > cap) addIssue(ctx.issues, path, `At most ${cap} ${type} button${cap > 1 ? "s" : ""}; found ${count}.`);
  }
  if (ctx.category === "AUTHENTICATION" && types.length !== 1) {
    addIssue(ctx.issues, path, `AUTHENTICATION templates take exactly one OTP button; found ${types.length} buttons.`);
  }
  const kinds = types.filter((t) => t !== undefined).map((t) => t === "QUICK_REPLY");
  const switches = kinds.filter((quick, j) => j > 0 && quick !== kinds[j - 1]).length;
  if (switches > 1) addIssue(ctx.issues, path, "Keep the QUICK_REPLY buttons together, all before or all after the other buttons.");
}

// ----------------------------------------------------------------------------------------- variables
