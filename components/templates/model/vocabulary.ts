import type { TemplateStatus } from "@/lib/client/templates";
import type { ButtonType, HeaderFormat, ParameterFormat, TemplateCategory } from "@/lib/domain/templates/types";

/**
 * The template vocabulary the builder offers (docs/spec/decisions.md "Templates"). The browser cannot
 * import lib/domain at run time, so these are copies; `satisfies` keeps them to the server's types.
 */
export type { ButtonType, HeaderFormat, ParameterFormat, TemplateCategory };

export const TEMPLATE_STATUSES = ["PENDING", "APPROVED", "REJECTED", "PAUSED", "DISABLED"] as const satisfies readonly TemplateStatus[];
export const CATEGORIES = ["UTILITY", "MARKETING", "AUTHENTICATION"] as const satisfies readonly TemplateCategory[];
export const PARAMETER_FORMATS = ["POSITIONAL", "NAMED"] as const satisfies readonly ParameterFormat[];
export const HEADER_FORMATS = ["TEXT", "IMAGE", "VIDEO", "DOCUMENT", "LOCATION"] as const satisfies readonly HeaderFormat[];
export const MEDIA_HEADERS: ReadonlySet<HeaderFormat> = new Set(["IMAGE", "VIDEO", "DOCUMENT"]);
/** The kinds a non-AUTHENTICATION template may use; AUTHENTICATION takes one OTP button only. */
export const BUTTON_TYPES = ["QUICK_REPLY", "URL", "PHONE_NUMBER", "COPY_CODE", "FLOW"] as const satisfies readonly ButtonType[];
export const OTP_TYPES = ["COPY_CODE", "ONE_TAP", "ZERO_TAP"] as const;
export type OtpType = (typeof OTP_TYPES)[number];
export const FLOW_ACTIONS = ["navigate", "data_exchange"] as const;
export type FlowAction = (typeof FLOW_ACTIONS)[number];

/** The provider's limits the form shows as counters (lib/domain/templates/types.ts TEMPLATE_LIMITS). */
export const LIMITS = { headerText: 60, bodyText: 1024, footerText: 60, buttons: 10, buttonText: 25, couponCode: 15 } as const;

export const CATEGORY_LABELS: Record<TemplateCategory, string> = {
  UTILITY: "Utility",
  MARKETING: "Marketing",
  AUTHENTICATION: "Authentication",
};

export const BUTTON_LABELS: Record<ButtonType, string> = {
  QUICK_REPLY: "Quick reply",
  URL: "Visit website",
  PHONE_NUMBER: "Call phone number",
  COPY_CODE: "Copy offer code",
  OTP: "One-time password",
  FLOW: "Open a flow",
};

export const HEADER_LABELS: Record<HeaderFormat | "NONE", string> = {
  NONE: "None",
  TEXT: "Text",
  IMAGE: "Image",
  VIDEO: "Video",
  DOCUMENT: "Document",
  LOCATION: "Location",
};
