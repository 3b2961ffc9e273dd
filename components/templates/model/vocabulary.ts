import type { TemplateStatus } from "@/lib/client/templates";
import {
  FLOW_ACTIONS,
  HEADER_FORMATS,
  MEDIA_HEADER_FORMATS,
  OTP_TYPES,
  PARAMETER_FORMATS,
  TEMPLATE_CATEGORIES,
  TEMPLATE_LIMITS,
  type ButtonType,
  type HeaderFormat,
  type ParameterFormat,
  type TemplateCategory,
} from "@/lib/shared/templates/types";

/**
 * The template vocabulary the builder offers (docs/spec/decisions.md "Templates"): the server's own
 * lists and limits (lib/shared/templates), plus the builder's labels.
 */
export type { ButtonType, HeaderFormat, ParameterFormat, TemplateCategory };

export const TEMPLATE_STATUSES = ["PENDING", "APPROVED", "REJECTED", "PAUSED", "DISABLED"] as const satisfies readonly TemplateStatus[];
export const CATEGORIES = TEMPLATE_CATEGORIES;
export { FLOW_ACTIONS, HEADER_FORMATS, OTP_TYPES, PARAMETER_FORMATS };
export const MEDIA_HEADERS = MEDIA_HEADER_FORMATS;
/** The kinds a non-AUTHENTICATION template may use; AUTHENTICATION takes one OTP button only. */
export const BUTTON_TYPES = ["QUICK_REPLY", "URL", "PHONE_NUMBER", "COPY_CODE", "FLOW"] as const satisfies readonly ButtonType[];
export type OtpType = (typeof OTP_TYPES)[number];
export type FlowAction = (typeof FLOW_ACTIONS)[number];

/** The provider's limits the form shows as counters. */
export const LIMITS = TEMPLATE_LIMITS;

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
