import type { TemplateCreateRequest } from "@/lib/client/templates";
import { variablesIn } from "./variables";
import { MEDIA_HEADERS, type ButtonType, type FlowAction, type HeaderFormat, type OtpType, type ParameterFormat, type TemplateCategory } from "./vocabulary";

/**
 * What the template builder edits, in the form's terms (strings as typed), and the create request
 * it becomes. The request is built as the provider writes components (docs/spec/decisions.md
 * "Templates"); empty fields are sent as they are so the server's 400 names them by path.
 */

export interface ButtonDraft {
  /** Stable React key: buttons move and disappear. */
  key: string;
  type: ButtonType;
  text: string;
  url: string;
  /** A full sample URL, for a URL ending in {{1}}. */
  urlExample: string;
  phoneNumber: string;
  /** COPY_CODE: the sample code. */
  code: string;
  flowId: string;
  flowAction: FlowAction;
  navigateScreen: string;
  otpType: OtpType;
  packageName: string;
  signatureHash: string;
  zeroTapTermsAccepted: boolean;
}

export interface TemplateDraft {
  channelId: string;
  name: string;
  language: string;
  category: TemplateCategory;
  parameterFormat: ParameterFormat;
  header: { format: HeaderFormat | "NONE"; text: string; handle: string; examples: Record<string, string> };
  body: { text: string; examples: Record<string, string>; addSecurityRecommendation: boolean };
  footer: { text: string; codeExpirationMinutes: string };
  buttons: ButtonDraft[];
}

export function emptyDraft(channelId = ""): TemplateDraft {
  return {
    channelId,
    name: "",
    language: "en_US",
    category: "UTILITY",
    parameterFormat: "POSITIONAL",
    header: { format: "NONE", text: "", handle: "", examples: {} },
    body: { text: "", examples: {}, addSecurityRecommendation: true },
    footer: { text: "", codeExpirationMinutes: "" },
    buttons: [],
  };
}

export function newButton(type: ButtonType, key: string): ButtonDraft {
  return {
    key,
    type,
    text: "",
    url: "",
    urlExample: "",
    phoneNumber: "",
    code: "",
    flowId: "",
    flowAction: "navigate",
    navigateScreen: "",
    otpType: "COPY_CODE",
    packageName: "",
    signatureHash: "",
    zeroTapTermsAccepted: false,
  };
}

type Component = Record<string, unknown>;
export type SectionName = "HEADER" | "BODY" | "FOOTER" | "BUTTONS";

/** The request, and where each section landed in `components` (the server's issue paths count from there). */
export interface BuiltRequest {
  request: TemplateCreateRequest;
  at: Partial<Record<SectionName, number>>;
}

export const isAuthentication = (draft: Pick<TemplateDraft, "category">) => draft.category === "AUTHENTICATION";

/** The variables' samples in the form of the parameter format: `<kind>_text` or `<kind>_text_named_params`. */
function examplesOf(kind: "header" | "body", text: string, examples: Record<string, string>, format: ParameterFormat): Component | null {
  const names = variablesIn(text);
  if (names.length === 0) return null;
  const value = (name: string) => examples[name] ?? "";
  if (format === "NAMED") return { [`${kind}_text_named_params`]: names.map((name) => ({ param_name: name, example: value(name) })) };
  const values = names.map(value);
  return { [`${kind}_text`]: kind === "body" ? [values] : values };
}

function headerComponent(draft: TemplateDraft): Component | null {
  const { format, text, handle, examples } = draft.header;
  if (format === "NONE" || isAuthentication(draft)) return null;
  if (format === "TEXT") {
    const example = examplesOf("header", text, examples, draft.parameterFormat);
    return { type: "HEADER", format, text, ...(example ? { example } : {}) };
  }
  if (MEDIA_HEADERS.has(format)) return { type: "HEADER", format, example: { header_handle: [handle.trim()] } };
  return { type: "HEADER", format };
}

function bodyComponent(draft: TemplateDraft): Component {
  if (isAuthentication(draft)) return { type: "BODY", add_security_recommendation: draft.body.addSecurityRecommendation };
  const example = examplesOf("body", draft.body.text, draft.body.examples, draft.parameterFormat);
  return { type: "BODY", text: draft.body.text, ...(example ? { example } : {}) };
}

function footerComponent(draft: TemplateDraft): Component | null {
  if (isAuthentication(draft)) {
    const minutes = draft.footer.codeExpirationMinutes.trim();
    return minutes ? { type: "FOOTER", code_expiration_minutes: Number(minutes) } : null;
  }
  return draft.footer.text.trim() ? { type: "FOOTER", text: draft.footer.text } : null;
}

/** One button in the provider's shape. */
function buttonComponent(button: ButtonDraft): Component {
  const { type, text } = button;
  switch (type) {
    case "QUICK_REPLY":
      return { type, text };
    case "URL":
      return { type, text, url: button.url, ...(variablesIn(button.url).length ? { example: [button.urlExample] } : {}) };
    case "PHONE_NUMBER":
      return { type, text, phone_number: button.phoneNumber.replace(/[\s()-]/g, "") };
    case "COPY_CODE":
      return { type, example: button.code };
    case "FLOW":
      return {
        type,
        text,
        flow_id: button.flowId,
        flow_action: button.flowAction,
        ...(button.flowAction === "navigate" ? { navigate_screen: button.navigateScreen } : {}),
      };
    case "OTP":
      return otpButton(button);
  }
}

function otpButton(button: ButtonDraft): Component {
  const apps =
    button.otpType === "COPY_CODE" ? {} : { supported_apps: [{ package_name: button.packageName.trim(), signature_hash: button.signatureHash.trim() }] };
  return {
    type: "OTP",
    otp_type: button.otpType,
    ...(button.text.trim() ? { text: button.text } : {}),
    ...apps,
    ...(button.otpType === "ZERO_TAP" ? { zero_tap_terms_accepted: button.zeroTapTermsAccepted } : {}),
  };
}

/**
 * The draft under another category. AUTHENTICATION templates take exactly one OTP button and no
 * other kind, the others no OTP button: the buttons change with the category so the form never
 * holds a button the category refuses.
 */
export function withCategory(draft: TemplateDraft, category: TemplateCategory, key: string): TemplateDraft {
  if (category === draft.category) return draft;
  const buttons = category === "AUTHENTICATION" ? [newButton("OTP", key)] : draft.buttons.filter((button) => button.type !== "OTP");
  return { ...draft, category, buttons };
}

/** POST /templates as the draft says, with each section's index in `components`. */
export function buildRequest(draft: TemplateDraft): BuiltRequest {
  const sections: Array<[SectionName, Component | null]> = [
    ["HEADER", headerComponent(draft)],
    ["BODY", bodyComponent(draft)],
    ["FOOTER", footerComponent(draft)],
  ];
  if (draft.buttons.length) sections.push(["BUTTONS", { type: "BUTTONS", buttons: draft.buttons.map(buttonComponent) }]);
  const at: BuiltRequest["at"] = {};
  const components: Component[] = [];
  for (const [name, component] of sections) {
    if (!component) continue;
    at[name] = components.length;
    components.push(component);
  }
  return {
    request: {
      channel_id: draft.channelId,
      name: draft.name.trim(),
      language: draft.language.trim(),
      category: draft.category,
      parameter_format: draft.parameterFormat,
      components,
    },
    at,
  };
}
