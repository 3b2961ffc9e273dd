import { SvcError, type ErrorCode } from "@/lib/errors";
import { databaseFailureOf } from "@/lib/ports/db/postgres-guard";

/**
 * The one boundary between an error and what a tenant is shown or what is stored for them: an API
 * answer (lib/api/respond.ts), an automation run's `error`, an agent tool call's error, a rejected
 * env.KV promise inside a function. SvcError keeps its code and message (ours, written for the
 * caller); the database being away is `database_unavailable`; anything else is `internal_error` with
 * a fixed message: a driver error carries the query text and its parameters (a contact's phone, name,
 * message text), so it is logged here in full and never passed on (docs/api-decisions.md "Errors").
 */
export interface PublicError {
  code: ErrorCode;
  message: string;
  /** Extra wire fields of the error body. */
  details: Record<string, unknown>;
  headers: Record<string, string>;
}

const INTERNAL_ERROR_MESSAGE = "Something went wrong on our side.";
const DATABASE_MESSAGES = {
  unreachable: "The database is unreachable right now, so nothing was done.",
  timed_out: "The database did not answer in time (a statement ran past its limit), so nothing was done.",
} as const;

/** What a caller is told when the database failed the request: which of the two happened, and that nothing was done. */
export function databaseUnavailableMessage(error: unknown): string {
  return DATABASE_MESSAGES[databaseFailureOf(error) ?? "unreachable"];
}

/**
 * `where` names the place for the log line (a request id, "automations.step run_..."); `logAs` is the
 * log line's words for an unexpected error (the fault suite counts "unhandled error" as a 500).
 */
export function publicErrorOf(error: unknown, where: string, logAs = "internal error, kept from the tenant"): PublicError {
  if (SvcError.is(error)) return { code: error.code, message: error.message, details: error.details, headers: error.headers };
  const failure = databaseFailureOf(error);
  if (failure) {
    console.warn(`[${where}] database unavailable:`, error instanceof Error ? error.message : error);
    return {
      code: "database_unavailable",
      message: DATABASE_MESSAGES[failure],
      details: { retryable: true, retry_after: 1 },
      headers: { "Retry-After": "1" },
    };
  }
  console.error(`[${where}] ${logAs}`, error);
  return { code: "internal_error", message: INTERNAL_ERROR_MESSAGE, details: {}, headers: {} };
}

/** `code: message`, for a place that holds one line of text (a rejected promise inside a function, a run's error). */
export function publicErrorText(error: unknown, where: string): string {
  const found = publicErrorOf(error, where);
  return `${found.code}: ${found.message}`;
}
