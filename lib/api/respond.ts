import { API_VERSION } from "@/lib/config";
import { SvcError } from "@/lib/errors";
import { isDatabaseUnavailable } from "@/lib/ports/db/postgres-guard";
import { ERROR_STATUS } from "./error-status";

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

/** Headers every real handler response carries (and unserved paths never do: see router.ts). */
export function handlerHeaders(requestId: string): Record<string, string> {
  return { "Svc-Version": API_VERSION, "Request-Id": requestId };
}

export function errorResponse(error: unknown, requestId: string, headers: Record<string, string>): Response {
  const failure = failureOf(error, requestId);
  return json(failure.status, failure.body, { ...headers, ...failure.headers });
}

/** A failure as the spec's error body, its status and its own headers: what errorResponse answers, and what an MCP tool result carries (lib/api/mcp). */
export function failureOf(error: unknown, requestId: string): { status: number; body: Record<string, unknown>; headers: Record<string, string> } {
  if (SvcError.is(error)) {
    const status = ERROR_STATUS[error.code];
    const body: Record<string, unknown> = { error: error.code, message: error.message, ...error.details };
    if (status >= 500) body.request_id = requestId;
    return { status, body, headers: { ...error.headers } };
  }
  if (isDatabaseUnavailable(error)) {
    // Nothing was written (a failed request releases its idempotency claim): retrying is safe.
    console.warn(`[${requestId}] database unavailable:`, error instanceof Error ? error.message : error);
    return { status: 503, body: databaseUnavailableBody(requestId), headers: { "Retry-After": "1" } };
  }
  // Logged in full here; the client gets only the id to quote to support.
  console.error(`[${requestId}] unhandled error`, error);
  return {
    status: 500,
    body: { error: "internal_error", message: "Something went wrong on our side. Retry, and quote request_id if it persists.", request_id: requestId },
    headers: {},
  };
}

export function databaseUnavailableBody(requestId: string) {
  return {
    error: "database_unavailable",
    message: "The database is unreachable right now, so nothing was done. Retry after Retry-After seconds (with the same Idempotency-Key for writes).",
    retryable: true,
    retry_after: 1,
    request_id: requestId,
  };
}
