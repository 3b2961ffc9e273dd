import { API_VERSION } from "@/lib/config";
import { SvcError } from "@/lib/errors";
import { databaseUnavailableMessage, publicErrorOf } from "@/lib/public-error";
import { ERROR_STATUS } from "./error-status";

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return jsonText(status, JSON.stringify(body), headers);
}

/** json() for an answer already serialized (the text an idempotency record stored). */
export function jsonText(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, {
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

/**
 * A failure as the spec's error body, its status and its own headers: what errorResponse answers, and
 * what an MCP tool result carries (lib/api/mcp). What may be shown is decided by the one boundary
 * (lib/public-error.ts); this adds what an HTTP caller does next and the request id to quote.
 */
export function failureOf(error: unknown, requestId: string): { status: number; body: Record<string, unknown>; headers: Record<string, string> } {
  const found = publicErrorOf(error, requestId, "unhandled error");
  const status = ERROR_STATUS[found.code];
  if (!SvcError.is(error)) {
    // Nothing was written when the database was away (a failed request releases its idempotency claim): retrying is safe.
    if (found.code === "database_unavailable") return { status, body: databaseUnavailableBody(requestId, error), headers: found.headers };
    return { status, body: { error: found.code, message: `${found.message} Retry, and quote request_id if it persists.`, request_id: requestId }, headers: {} };
  }
  const body: Record<string, unknown> = { error: found.code, message: found.message, ...found.details };
  if (status >= 500) body.request_id = requestId;
  return { status, body, headers: { ...found.headers } };
}

/** The 503 body when the database failed `error`: which way it failed (databaseUnavailableMessage), and what to do next. */
export function databaseUnavailableBody(requestId: string, error: unknown) {
  return {
    error: "database_unavailable",
    message: `${databaseUnavailableMessage(error)} Retry after Retry-After seconds (with the same Idempotency-Key for writes).`,
    retryable: true,
    retry_after: 1,
    request_id: requestId,
  };
}
