// The BUTTONS component: each button's own rules, then the provider's limits on the mix of kinds.
import { isRecord } from "@/lib/json";
import { BUTTON_TYPES, FLOW_ACTIONS, OTP_TYPES, TEMPLATE_LIMITS as LIMITS, addIssue, upper, type ButtonType } from "./types";
import { PLACEHOLDER, checkText, isHttpUrl, lower, nonBlank, oneOf, placeholders, type Component, type Ctx } from "./template-text";

// E.164 digits, the leading "+" optional because the provider's own examples leave it out.
const PHONE_NUMBER = /^\+?[1-9]\d{1,14}$/;

const PACKAGE_NAME = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;

const SIGNATURE_HASH = /^[A-Za-z0-9+/=]{11}$/;

export function checkButtons(ctx: Ctx, component: Component, path: string) {
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
