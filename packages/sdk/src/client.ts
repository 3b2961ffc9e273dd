import createClient from "openapi-fetch";
import type { Client, Middleware } from "openapi-fetch";
import type { paths } from "./schema.js";
import { DEFAULT_RETRY, retryingFetch, type RetryOptions } from "./retry.js";

/** A typed svc API client: openapi-fetch's `GET`/`POST`/... with paths, bodies and answers typed from the spec. */
export type SvcClient = Client<paths, "application/json">;

/** How any client of this package sends: the key, retries, headers and the fetch underneath. */
export interface TransportOptions {
  /** Default http://localhost:3000/api/v1 (the API); the login client's is the server's /api/cli. */
  baseUrl?: string;
  /** The fetch to send with (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** Retries on 429/503 (and network errors when safe); default 2. */
  maxRetries?: number;
  /** Fine-tuning of retries; `sleep`, `random` and `now` are there for tests. */
  retry?: Partial<Omit<RetryOptions, "maxRetries">>;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
}

export interface SvcClientOptions extends TransportOptions {
  /** Secret API key (svc_live_...). */
  apiKey: string;
  /** Pins the API version (the `Svc-Version` header), e.g. "2026-06-18". */
  apiVersion?: string;
  /** Adds an Idempotency-Key to every POST that has none (default true). */
  idempotencyKeys?: boolean;
}

export const DEFAULT_BASE_URL = "http://localhost:3000/api/v1";

export function createSvcClient(options: SvcClientOptions): SvcClient {
  const client = createTransport<paths>(options, {
    baseUrl: options.baseUrl ?? DEFAULT_BASE_URL,
    headers: {
      Authorization: `Bearer ${options.apiKey}`,
      ...(options.apiVersion ? { "Svc-Version": options.apiVersion } : {}),
    },
  });
  if (options.idempotencyKeys !== false) client.use(idempotencyKeys);
  return client;
}

/**
 * An openapi-fetch client over `Paths` with this package's retries: the one place both clients
 * (the API's and the login's) get their fetch, so they retry and authenticate the same way.
 */
export function createTransport<Paths extends object>(
  options: TransportOptions,
  fixed: { baseUrl: string; headers: Record<string, string> },
): Client<Paths, "application/json"> {
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry, maxRetries: options.maxRetries ?? DEFAULT_RETRY.maxRetries };
  // Looked up per call, not captured: tests and polyfills may replace globalThis.fetch later.
  const inner: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return createClient<Paths, "application/json">({
    baseUrl: fixed.baseUrl,
    fetch: retryingFetch(inner, retry),
    headers: { ...options.headers, ...fixed.headers },
  });
}

/**
 * Gives every POST an Idempotency-Key, set once before the first attempt so every retry of it carries
 * the same key (the API then replays instead of acting twice). A key the caller set is kept; a body
 * `idempotency_key` is copied to the header (the API refuses the two when they differ).
 */
export const idempotencyKeys: Middleware = {
  async onRequest({ request }) {
    if (request.method !== "POST" || request.headers.has("Idempotency-Key")) return;
    const fromBody = await bodyIdempotencyKey(request);
    request.headers.set("Idempotency-Key", fromBody ?? globalThis.crypto.randomUUID());
  },
};

async function bodyIdempotencyKey(request: Request): Promise<string | null> {
  if (!request.body || !request.headers.get("Content-Type")?.includes("json")) return null;
  try {
    const body: unknown = JSON.parse(await request.clone().text());
    const key = body && typeof body === "object" ? (body as { idempotency_key?: unknown }).idempotency_key : undefined;
    return typeof key === "string" ? key : null;
  } catch {
    return null;
  }
}
