import { API_VERSION } from "@/lib/config";
import { SvcError } from "@/lib/errors";
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
  if (error instanceof SvcError) {
    const status = ERROR_STATUS[error.code];
    const body: Record<string, unknown> = { error: error.code, message: error.message, ...error.details };
    if (status >= 500) body.request_id = requestId;
    return json(status, body, { ...headers, ...error.headers });
  }
  // Logged in full here; the client gets only the id to quote to support.
  console.error(`[${requestId}] unhandled error`, error);
  return json(500, { error: "internal_error", message: "Something went wrong on our side. Retry, and quote request_id if it persists.", request_id: requestId }, headers);
}
