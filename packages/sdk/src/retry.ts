/**
 * Retries for the SDK's fetch: 429 and 503 are answers of a request the API did not act on, so they
 * are retried for every method; a network error is retried only when the request is safe to repeat
 * (GET, HEAD, OPTIONS, PUT, DELETE, or any request carrying an Idempotency-Key: the API replays it
 * instead of acting twice). Other statuses, 4xx included, are returned as they are.
 */
export interface RetryOptions {
  /** Retries after the first attempt (0 turns retrying off). */
  maxRetries: number;
  /** First backoff step when the answer has no Retry-After; doubles per retry. */
  baseDelayMs: number;
  /** Cap of the exponential backoff. */
  maxDelayMs: number;
  /** A Retry-After longer than this (a monthly quota, say) is handed back to the caller instead of waited out. */
  maxRetryAfterMs: number;
  /** Injected for tests: how to wait, the jitter source and the clock (for HTTP-date Retry-After). */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  now: () => number;
}

export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 503]);
const REPEATABLE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  sleep: abortableSleep,
  random: Math.random,
  now: Date.now,
};

/** Retry-After in milliseconds: delta-seconds or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // Only an HTTP date is a date here: Date.parse would read "-5" or "2026" as years.
  if (!/^[A-Za-z]{3},/.test(value)) return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Exponential backoff with jitter: half the step fixed, half random, so clients spread out but never hammer. */
export function backoffMs(retry: number, options: Pick<RetryOptions, "baseDelayMs" | "maxDelayMs" | "random">): number {
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  return Math.round(step / 2 + (options.random() * step) / 2);
}

/** A fetch that retries `inner` per the rules above. Each attempt sends a fresh clone of the request. */
export function retryingFetch(inner: typeof fetch, options: RetryOptions): typeof fetch {
  return async (input, init) => {
    // openapi-fetch passes a Request plus (on Node) an undici-only init; keep that init for every attempt.
    const original = input instanceof Request ? input : new Request(input, init);
    const passInit = input instanceof Request ? init : undefined;
    const networkRetryable = REPEATABLE_METHODS.has(original.method) || original.headers.has("Idempotency-Key");
    for (let retry = 0; ; retry++) {
      let response: Response;
      try {
        response = await inner(original.clone(), passInit);
      } catch (error) {
        if (retry >= options.maxRetries || !networkRetryable || original.signal.aborted) throw error;
        await options.sleep(backoffMs(retry, options), original.signal);
        continue;
      }
      if (!RETRY_STATUSES.has(response.status) || retry >= options.maxRetries) return response;
      const after = retryAfterMs(response.headers.get("Retry-After"), options.now());
      if (after !== null && after > options.maxRetryAfterMs) return response;
      // Free the connection: this answer is dropped.
      await response.body?.cancel().catch(() => {});
      await options.sleep(after ?? backoffMs(retry, options), original.signal);
    }
  };
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
