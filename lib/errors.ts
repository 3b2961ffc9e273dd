import { errorKind } from "@/lib/error-kind";

/**
 * The one error model. Domain code throws SvcError with a wire code; lib/api maps the code to an HTTP
 * status (lib/api/error-status.ts) so business rules never mention HTTP.
 */
export type ErrorCode =
  | "invalid_request"
  | "invalid_json"
  | "idempotency_key_required"
  | "invalid_api_version"
  | "missing_api_key"
  | "invalid_api_key"
  | "unauthenticated"
  | "insufficient_scope"
  | "origin_not_allowed"
  | "forbidden"
  | "not_found"
  | "idempotency_key_reused"
  | "idempotency_key_in_progress"
  | "outside_messaging_window"
  | "contact_opt_in_required"
  | "template_not_approved"
  | "template_exists"
  | "template_rejected"
  | "template_parameters_invalid"
  | "ai_handoff_active"
  | "conflict"
  | "setup_complete"
  | "sandbox_recipient_not_joined"
  | "channel_not_ready"
  | "interactive_type_unsupported_on_channel"
  | "media_unsupported_on_channel"
  | "feature_unsupported_on_channel"
  | "flow_not_sendable"
  | "flow_conflict"
  | "flow_published"
  | "flow_invalid"
  | "function_conflict"
  | "function_not_deployed"
  | "function_inactive"
  | "function_in_use"
  | "invalid_tool_backing"
  | "tool_conflict"
  | "config_invalid"
  | "config_project_mismatch"
  | "broadcast_not_editable"
  | "broadcast_has_no_recipients"
  | "authorization_pending"
  | "expired_token"
  | "access_denied"
  | "provider_error"
  | "unprocessable"
  | "payload_too_large"
  | "rate_limit"
  | "monthly_quota_exceeded"
  | "message_pair_rate_limit"
  | "message_rate_limit_unavailable"
  | "database_unavailable"
  | "live_updates_unavailable"
  | "internal_error";

export class SvcError extends errorKind("SvcError") {
  readonly code: ErrorCode;
  /** Extra wire fields of the error body (issues, required_scope, blockers, ...). */
  readonly details: Record<string, unknown>;
  /** Extra response headers (Retry-After, X-Svc-Limit-Type, ...). */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(message);
    this.name = "SvcError";
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
}

export function notFound(what: string, id?: string): SvcError {
  return new SvcError("not_found", id ? `No ${what} with id '${id}'.` : `No such ${what}.`);
}

/** A 400 invalid_request with `issues` keyed by dotted path, as zod failures produce. */
export function invalidRequest(message: string, issues: Record<string, string[]>): SvcError {
  return new SvcError("invalid_request", message, { issues });
}
