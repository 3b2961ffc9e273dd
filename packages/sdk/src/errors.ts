import type { components } from "./schema.js";

/** The API's error body (components.schemas.Error): `error` is the machine-readable code. */
export type ErrorBody = components["schemas"]["Error"];

/**
 * A non-2xx answer of the svc API, from its error body: status, code (`error`), message, the
 * request id to quote to support, and the field issues of a 400 invalid_request.
 */
export class SvcApiError extends Error {
  override readonly name = "SvcApiError";
  readonly status: number;
  /** Machine-readable code, e.g. invalid_request, not_found, rate_limit. */
  readonly code: string;
  readonly requestId: string | null;
  /** invalid_request: messages keyed by dotted field path. */
  readonly issues: Record<string, string[]> | undefined;
  /** The whole error body (some codes add fields: required_scope, blockers, retryable, ...). */
  readonly body: ErrorBody | null;
  readonly response: Response;

  constructor(response: Response, body: unknown) {
    const parsed = isErrorBody(body) ? body : null;
    const message = parsed?.message ?? (typeof body === "string" && body ? body.slice(0, 500) : `HTTP ${response.status}`);
    super(message);
    this.status = response.status;
    this.code = parsed?.error ?? `http_${response.status}`;
    this.requestId = parsed?.request_id ?? response.headers.get("Request-Id");
    this.issues = parsed?.issues;
    this.body = parsed;
    this.response = response;
  }

  /** Whether `value` is an SvcApiError, also across copies of the package (no instanceof). */
  static is(value: unknown): value is SvcApiError {
    return value instanceof Error && value.name === "SvcApiError" && typeof (value as SvcApiError).status === "number";
  }
}

function isErrorBody(body: unknown): body is ErrorBody {
  return !!body && typeof body === "object" && typeof (body as ErrorBody).error === "string" && typeof (body as ErrorBody).message === "string";
}

/**
 * The data of an openapi-fetch result, or an SvcApiError thrown for its error:
 * `const message = await unwrap(client.POST("/messages", { body }))`.
 */
export async function unwrap<T extends { data?: unknown; error?: unknown; response: Response }>(result: T | Promise<T>): Promise<NonNullable<T["data"]>> {
  const { data, error, response } = await result;
  if (!response.ok) throw new SvcApiError(response, error);
  return data as NonNullable<T["data"]>;
}
