/**
 * The browser's only way to the server: JSON in and out, the session cookie, and one error type.
 * Every react-query hook in lib/client/ calls these; components never call fetch themselves.
 */
import type { ErrorBodyWire } from "@/lib/api/schemas/common";
import { errorKind } from "@/lib/error-kind";

/**
 * The spec's error body (the Error schema): `error` (machine code) + `message`, plus condition-specific
 * keys. Partial: a body from a proxy or a crashed server may be anything, so each field is checked.
 */
export type ApiErrorBody = Partial<ErrorBodyWire>;

export class ApiError extends errorKind("ApiError") {
  override readonly name = "ApiError";
  /** HTTP status; 0 when the server could not be reached at all. */
  readonly status: number;
  /** The body's `error` code (e.g. "insufficient_scope"), or "network_error" / "http_<status>". */
  readonly code: string;
  /** Field → messages for `invalid_request` (the route wrapper's zod issues). */
  readonly issues: Record<string, string[]> | undefined;
  /** The Request-Id header (or the body's request_id): what support asks for. */
  readonly requestId: string | undefined;
  readonly body: ApiErrorBody | undefined;

  constructor(init: { status: number; code: string; message: string; issues?: Record<string, string[]>; requestId?: string; body?: ApiErrorBody }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.issues = init.issues;
    this.requestId = init.requestId;
    this.body = init.body;
  }

  /** The first message for a field of an invalid_request, for a Field's `error`. */
  fieldError(field: string): string | undefined {
    return this.issues?.[field]?.[0];
  }
}

export function isApiError(error: unknown): error is ApiError {
  return ApiError.is(error);
}

type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface ApiInit {
  method?: HttpMethod;
  /** Serialised as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

// Pages where being signed out is normal: redirecting from them would loop.
const PUBLIC_PATHS = ["/sign-in", "/setup", "/invite/"];

function redirectToSignIn(): void {
  if (typeof window === "undefined") return;
  const { pathname, search } = window.location;
  if (PUBLIC_PATHS.some((prefix) => pathname === prefix || pathname.startsWith(prefix))) return;
  window.location.assign(`/sign-in?callbackUrl=${encodeURIComponent(pathname + search)}`);
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * fetch + JSON. Resolves with the parsed body on 2xx (undefined for an empty one); otherwise throws
 * ApiError. A 401 `unauthenticated` (session expired) also sends the browser to the sign-in page,
 * with a callbackUrl back to where the operator was.
 */
export async function apiFetch<T>(url: string, init: ApiInit = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", ...init.headers };
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: "same-origin",
      cache: "no-store",
      signal: init.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiError({ status: 0, code: "network_error", message: "Could not reach the server. Check your connection and try again." });
  }

  const parsed = parseJson(await response.text());
  if (response.ok) return parsed as T;

  const body = parsed && typeof parsed === "object" ? (parsed as ApiErrorBody) : undefined;
  const error = new ApiError({
    status: response.status,
    code: typeof body?.error === "string" ? body.error : `http_${response.status}`,
    message: typeof body?.message === "string" && body.message ? body.message : defaultMessage(response.status),
    issues: body?.issues && typeof body.issues === "object" ? body.issues : undefined,
    requestId: response.headers.get("Request-Id") ?? (typeof body?.request_id === "string" ? body.request_id : undefined),
    body,
  });
  if (error.status === 401 && error.code === "unauthenticated") redirectToSignIn();
  throw error;
}

/** `apiFetch` for one project's dashboard API: `/api/dashboard/projects/{projectId}{path}`. */
export function projectApi<T>(projectId: string, path: string, init?: ApiInit): Promise<T> {
  return apiFetch<T>(`/api/dashboard/projects/${encodeURIComponent(projectId)}${path}`, init);
}

function defaultMessage(status: number): string {
  if (status === 401) return "You are signed out. Sign in again to continue.";
  if (status === 403) return "Your role does not allow this.";
  if (status === 404) return "Not found.";
  if (status === 429) return "Too many requests. Wait a moment and try again.";
  if (status >= 500) return "Something went wrong on our side. Try again in a moment.";
  return `The request failed (HTTP ${status}).`;
}
