import { isAuthentication, type ButtonDraft, type TemplateDraft } from "./draft";
import { fillVariables, type TextSegment } from "./variables";
import { BUTTON_LABELS, type ButtonType, type HeaderFormat } from "./vocabulary";

/**
 * The message a customer would receive from the draft, for the builder's live preview: variables
 * replaced by their example values, AUTHENTICATION's preset text written out as the provider writes
 * it (with a sample code), and the buttons as their labels.
 */

export type PreviewHeader = { kind: "text"; segments: TextSegment[] } | { kind: "media" | "location"; format: HeaderFormat };

export interface PreviewButton {
  key: string;
  type: ButtonType;
  label: string;
}

export interface MessagePreview {
  header: PreviewHeader | null;
  body: TextSegment[];
  footer: string | null;
  buttons: PreviewButton[];
}

/** The code an AUTHENTICATION preview shows where the provider puts the real one. */
export const SAMPLE_CODE = "123456";

const OTP_DEFAULT_LABELS: Record<ButtonDraft["otpType"], string> = {
  COPY_CODE: "Copy code",
  ONE_TAP: "Autofill",
  ZERO_TAP: "Autofill",
};

function header(draft: TemplateDraft): PreviewHeader | null {
  const { format, text, examples } = draft.header;
  if (format === "NONE" || isAuthentication(draft)) return null;
  if (format === "TEXT") return text.trim() ? { kind: "text", segments: fillVariables(text, examples) } : null;
  return { kind: format === "LOCATION" ? "location" : "media", format };
}

function authenticationBody(draft: TemplateDraft): TextSegment[] {
  const segments: TextSegment[] = [{ text: SAMPLE_CODE, variable: "1" }, { text: " is your verification code." }];
  if (draft.body.addSecurityRecommendation) segments.push({ text: " For your security, do not share this code." });
  return segments;
}

function footer(draft: TemplateDraft): string | null {
  if (isAuthentication(draft)) {
    const minutes = Number(draft.footer.codeExpirationMinutes.trim());
    if (!draft.footer.codeExpirationMinutes.trim() || !Number.isFinite(minutes)) return null;
    return `This code expires in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  }
  return draft.footer.text.trim() ? draft.footer.text : null;
}

function buttonLabel(button: ButtonDraft): string {
  if (button.type === "COPY_CODE") return BUTTON_LABELS.COPY_CODE;
  if (button.type === "OTP") return button.text.trim() || OTP_DEFAULT_LABELS[button.otpType];
  return button.text.trim() || BUTTON_LABELS[button.type];
}

export function previewOf(draft: TemplateDraft): MessagePreview {
  return {
    header: header(draft),
    body: isAuthentication(draft) ? authenticationBody(draft) : fillVariables(draft.body.text, draft.body.examples),
    footer: footer(draft),
    buttons: draft.buttons.map((button) => ({ key: button.key, type: button.type, label: buttonLabel(button) })),
  };
}
