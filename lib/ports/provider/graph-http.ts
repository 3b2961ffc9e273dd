import { Agent, request as undiciRequest } from "undici";
import { ProviderError, type MessageFailure } from "@/lib/ports/provider/types";
import { isRecord } from "@/lib/json";

/**
 * A small client for the provider's Graph API: `{baseUrl}/{path}`, Bearer token, JSON in and out,
 * 15 s timeout. Every failure becomes a ProviderError carrying the spec's Message.failure fields.
 *
 * Graph error bodies look like
 *   {"error":{"message":"(#131056) (Business Account, Consumer Account) pair rate limit hit",
 *             "type":"OAuthException","code":131056,"error_subcode":2494055,
 *             "error_data":{"messaging_product":"whatsapp","details":"..."},
 *             "error_user_title":"...","error_user_msg":"...","fbtrace_id":"A1b2..."}}
 */
const GRAPH_TIMEOUT_MS = 15_000;

/**
 * Provider codes that mean "slow down and try again": 4 (app call rate), 613 (Messenger Send API
 * rate), 80007 (business account rate), 130429 (Cloud API throughput), 131048 (spam rate limit),
 * 131056 (business/consumer pair rate limit).
 */
const THROTTLING_CODES: ReadonlySet<number> = new Set([4, 613, 80007, 130429, 131048, 131056]);

export interface GraphClientOptions {
  baseUrl: string;
  accessToken: string;
  timeoutMs?: number;
  /** Injected for tests; by default undici's request() over keep-alive connections (graphAgent). */
  fetch?: typeof fetch;
  now?: () => Date;
}

/**
 * The process's connections to the Graph API. undici's request() rather than fetch(): a broadcast
 * sends a thousand messages a second, and fetch's Request, Response and stream objects, with an
 * AbortSignal per call, cost the worker three times the CPU per request in a profile of the sender.
 */
const graphAgent = new Agent({ keepAliveTimeout: 30_000, connections: 256 });

/** The answer's status and text; a timeout (no answer, or the body stalls) rejects as fetch's would. */
async function exchange(options: GraphClientOptions, url: string, init: { method: string; headers: Record<string, string>; body: string | undefined }) {
  const timeoutMs = options.timeoutMs ?? GRAPH_TIMEOUT_MS;
  if (options.fetch) {
    const response = await options.fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    return { status: response.status, text: await response.text() };
  }
  const response = await undiciRequest(url, {
    method: init.method as "GET" | "POST" | "DELETE",
    headers: init.headers,
    body: init.body ?? null,
    dispatcher: graphAgent,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  return { status: response.statusCode, text: await response.body.text() };
}

/** What both adapters need to reach the Graph API. */
export interface AdapterOptions {
  graphUrl: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  now?: () => Date;
}

export interface GraphRequest {
  method?: "GET" | "POST" | "DELETE";
  /** Path below the base URL, e.g. `123456/messages` (a leading slash is fine). */
  path: string;
  body?: unknown;
}

function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}

/** Sends one Graph request; resolves with the parsed JSON body of a 2xx answer, else throws ProviderError. */
export async function graphRequest(options: GraphClientOptions, request: GraphRequest): Promise<unknown> {
  const now = options.now ?? (() => new Date());
  const headers: Record<string, string> = {
    Authorization: `Bearer ${options.accessToken}`,
    Accept: "application/json",
    // Graph answers are a few hundred bytes: compressing them costs both sides more CPU than it saves.
    "Accept-Encoding": "identity",
  };
  let body: string | undefined;
  if (request.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(request.body);
  }
  let response: { status: number; text: string };
  try {
    response = await exchange(options, joinUrl(options.baseUrl, request.path), {
      method: request.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
    });
  } catch (error) {
    throw networkFailure(error, now());
  }
  const { text } = response;
  const parsed = parseJson(text);
  if (response.status < 200 || response.status > 299) throw httpFailure(response.status, parsed, text, now());
  if (parsed === undefined) {
    // A 2xx we cannot read: the provider may well have sent the message, so retrying could
    // duplicate it. Final, with the raw text kept for the operator.
    throw new ProviderError(
      failure({
        provider: "provider",
        summary: "The provider answered with a body that is not JSON",
        code: "invalid_response",
        message: text.slice(0, 500),
        http_status: response.status,
        occurred_at: now().toISOString(),
      }),
      false,
    );
  }
  return parsed;
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function codeOrNull(value: unknown): string | number | null {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value !== "") return /^\d+$/.test(value) ? Number(value) : value;
  return null;
}

function failure(partial: Partial<MessageFailure> & Pick<MessageFailure, "provider" | "summary" | "message" | "occurred_at">): MessageFailure {
  return {
    code: null,
    subcode: null,
    type: null,
    title: null,
    fbtrace_id: null,
    http_status: null,
    ...partial,
  };
}

/** True when a failure should be retried: HTTP 429, 5xx, or a throttling code. */
export function isRetryable(httpStatus: number | null, code: string | number | null): boolean {
  if (httpStatus !== null && (httpStatus === 429 || httpStatus >= 500)) return true;
  const numeric = typeof code === "number" ? code : typeof code === "string" && /^\d+$/.test(code) ? Number(code) : null;
  return numeric !== null && THROTTLING_CODES.has(numeric);
}

/** Maps a non-2xx Graph answer (parsed body, or undefined when not JSON) to a ProviderError. */
export function httpFailure(status: number, parsed: unknown, rawText: string, at: Date): ProviderError {
  const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : null;
  if (!error) {
    const snippet = rawText.trim().slice(0, 300);
    const result = failure({
      provider: "provider",
      summary: `The provider answered HTTP ${status}`,
      message: snippet || `HTTP ${status}`,
      http_status: status,
      occurred_at: at.toISOString(),
    });
    return new ProviderError(result, isRetryable(status, null));
  }
  const code = codeOrNull(error.code);
  const message = stringOrNull(error.message) ?? `HTTP ${status}`;
  const details = isRecord(error.error_data) ? stringOrNull(error.error_data.details) : null;
  const userMessage = stringOrNull(error.error_user_msg);
  const explanation = details ?? userMessage;
  const result = failure({
    provider: "provider",
    summary: explanation && !message.includes(explanation) ? `${message}: ${explanation}` : message,
    code,
    subcode: codeOrNull(error.error_subcode),
    type: stringOrNull(error.type),
    title: stringOrNull(error.error_user_title),
    message,
    fbtrace_id: stringOrNull(error.fbtrace_id),
    http_status: status,
    occurred_at: at.toISOString(),
  });
  return new ProviderError(result, isRetryable(status, code));
}

/** A request that never got an HTTP answer (DNS, refused, reset, timeout): always retryable. */
export function networkFailure(error: unknown, at: Date): ProviderError {
  const name = error instanceof Error ? error.name : "";
  // fetch's AbortSignal.timeout, and undici's request() timeouts (no answer, or a body that stalls).
  const timedOut = name === "TimeoutError" || name === "AbortError" || name === "HeadersTimeoutError" || name === "BodyTimeoutError";
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : null;
  const detail = error instanceof Error ? (cause ? `${error.message} (${cause})` : error.message) : String(error);
  const result = failure({
    provider: "service",
    summary: timedOut ? "The provider did not answer in time" : "Could not reach the provider",
    code: timedOut ? "timeout" : "network_error",
    type: timedOut ? "timeout" : "network",
    message: detail,
    occurred_at: at.toISOString(),
  });
  return new ProviderError(result, true);
}

/** A send the adapter refuses before calling the provider (content the platform cannot carry). Final. */
export function unsupportedContent(summary: string, at: Date = new Date()): ProviderError {
  return new ProviderError(
    failure({
      provider: "service",
      summary,
      code: "unsupported_content",
      type: "validation",
      message: summary,
      occurred_at: at.toISOString(),
    }),
    false,
  );
}
