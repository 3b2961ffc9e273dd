/**
 * The vocabulary of PLATFORM_A message templates (docs/spec/decisions.md "Templates"): categories,
 * component and button kinds, the provider's limits, and TemplateShape, what a stored template
 * expects from a send. Pure data, shared by the server and the dashboard (no server-only imports):
 * validate.ts judges a create request's components, request.ts its other fields, parameters.ts a send.
 */

export const TEMPLATE_CATEGORIES = ["UTILITY", "MARKETING", "AUTHENTICATION"] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

export const PARAMETER_FORMATS = ["POSITIONAL", "NAMED"] as const;
export type ParameterFormat = (typeof PARAMETER_FORMATS)[number];

export const COMPONENT_TYPES = ["HEADER", "BODY", "FOOTER", "BUTTONS"] as const;
export type ComponentType = (typeof COMPONENT_TYPES)[number];

export const HEADER_FORMATS = ["TEXT", "IMAGE", "VIDEO", "DOCUMENT", "LOCATION"] as const;
export type HeaderFormat = (typeof HEADER_FORMATS)[number];
export const MEDIA_HEADER_FORMATS: ReadonlySet<HeaderFormat> = new Set(["IMAGE", "VIDEO", "DOCUMENT"]);

export const BUTTON_TYPES = ["QUICK_REPLY", "URL", "PHONE_NUMBER", "COPY_CODE", "OTP", "FLOW"] as const;
export type ButtonType = (typeof BUTTON_TYPES)[number];

export const OTP_TYPES = ["COPY_CODE", "ONE_TAP", "ZERO_TAP"] as const;
export const FLOW_ACTIONS = ["navigate", "data_exchange"] as const;

/**
 * The `sub_type` a send component uses for each button kind. The provider stores an OTP button as a
 * URL button and takes the code through `sub_type: "url"`; a PHONE_NUMBER button takes no parameter.
 */
export const BUTTON_SUB_TYPES: Readonly<Record<ButtonType, string | null>> = {
  QUICK_REPLY: "quick_reply",
  URL: "url",
  PHONE_NUMBER: null,
  COPY_CODE: "copy_code",
  OTP: "url",
  FLOW: "flow",
};

/** The provider's published template limits (decisions.md "Templates" names the first five). */
export const TEMPLATE_LIMITS = {
  headerText: 60,
  headerVariables: 1,
  bodyText: 1024,
  footerText: 60,
  buttons: 10,
  buttonText: 25,
  urlButtons: 2,
  phoneNumberButtons: 1,
  copyCodeButtons: 1,
  url: 2000,
  phoneNumber: 20,
  couponCode: 15,
  codeExpirationMinutes: { min: 1, max: 90 },
  supportedApps: 5,
  packageName: 224,
} as const;

/** Issue messages by dotted request path (`components.1.text`), the shape of a 400's `issues`. */
export type Issues = Record<string, string[]>;

export interface ShapeButton {
  /** The button's position in the BUTTONS component: the `index` a send component names. */
  index: number;
  type: ButtonType;
  /** What a send must supply for this button: `["1"]` (URL suffix, OTP code), `["coupon_code"]`, or none. */
  variables: string[];
}

/** What a template expects from a send: variable names (or numbers) by component, and the header's kind. */
export interface TemplateShape {
  parameter_format: ParameterFormat;
  /** null without a header; a media or LOCATION header takes one parameter of that kind at send time. */
  header_format: HeaderFormat | null;
  variables: { header: string[]; body: string[]; buttons: ShapeButton[] };
}

/** The provider's own examples write kinds in either case (`"type": "body"`), so kinds compare upper-cased. */
export function upper(value: unknown): string | undefined {
  return typeof value === "string" ? value.toUpperCase() : undefined;
}

export function addIssue(issues: Issues, path: string, message: string): void {
  (issues[path] ??= []).push(message);
}
