import { describeBlocker } from "@/components/channels/blockers";
import { isApiError } from "@/lib/client/api";

/**
 * A refused POST /templates in words for the builder's banner (docs/spec/decisions.md "Templates"):
 * 412 channel_not_ready lists the channel's blockers with a next step each, 422 template_rejected
 * quotes the provider, 422 feature_unsupported_on_channel and 409 template_exists say what to change.
 * A 400's issues are shown on their fields; the banner only counts them.
 */
export interface SubmitProblem {
  title: string;
  /** The server's message, or the provider's for a rejection. */
  message: string;
  /** One line per blocker: what is wrong, then the next step. */
  details: string[];
  code: string;
}

function blockerLines(blockers: unknown): string[] {
  if (!Array.isArray(blockers)) return [];
  return blockers
    .filter((code): code is string => typeof code === "string")
    .map((code) => {
      const text = describeBlocker(code);
      return text ? `${text.problem} ${text.next}` : code;
    });
}

function providerWords(failure: unknown): string | null {
  if (!failure || typeof failure !== "object") return null;
  const { title, message } = failure as { title?: unknown; message?: unknown };
  const parts = [title, message].filter((part): part is string => typeof part === "string" && part.trim() !== "");
  return parts.length ? parts.join(": ") : null;
}

/**
 * A submit the builder held back: the draft breaks the rules the server would refuse it by
 * (lib/shared/templates/request.ts), so nothing was sent.
 */
export function uncheckedProblem(fieldIssueCount: number): SubmitProblem {
  const fields = fieldIssueCount === 1 ? "the field marked below" : fieldIssueCount > 1 ? `the ${fieldIssueCount} fields marked below` : "what is listed here";
  return {
    title: "The template breaks the provider's rules",
    message: `Nothing was sent yet. Fix ${fields}, then submit again.`,
    details: [],
    code: "invalid_request",
  };
}

export function describeSubmitError(error: unknown, fieldIssueCount: number): SubmitProblem | null {
  if (!error) return null;
  if (!isApiError(error))
    return { title: "The template was not submitted", message: error instanceof Error ? error.message : String(error), details: [], code: "unknown" };
  const body = error.body ?? {};
  switch (error.code) {
    case "channel_not_ready":
      return { title: "This channel can't submit templates yet", message: error.message, details: blockerLines(body.blockers), code: error.code };
    case "template_rejected":
      return { title: "The provider rejected the template", message: providerWords(body.failure) ?? error.message, details: [], code: error.code };
    case "feature_unsupported_on_channel":
      return { title: "Templates are a business messaging (PLATFORM_A) feature", message: error.message, details: [], code: error.code };
    case "template_exists":
      return { title: "This template already exists", message: error.message, details: [], code: error.code };
    case "invalid_request": {
      const fields = fieldIssueCount === 1 ? "1 field" : `${fieldIssueCount} fields`;
      const message = fieldIssueCount > 0 ? `Fix ${fields} marked below, then submit again.` : error.message;
      return { title: "The template breaks the provider's rules", message, details: [], code: error.code };
    }
    default:
      return { title: "The template was not submitted", message: error.message, details: [], code: error.code };
  }
}
