import { OutboundNetworkError, OutboundTimeoutError, SsrfError, safeRequest, type SafeRequestOptions } from "@/lib/ports/net/safe-request";
import type { BridgeFetchRequest, BridgeFetchResponse, HostBridge } from "@/lib/ports/sandbox/types";
import type { Settings } from "@/lib/domain/context";

/**
 * A function's `fetch`, made by the host through the SSRF guard (decisions.md "Hosted functions"):
 * http(s) only, 10 s each, the response at most 1 MiB, redirects handed back as they are (never
 * followed, so a redirect cannot lead to a blocked address). A refusal rejects the function's
 * promise with a TypeError-like message naming the reason; the sandbox counts sub-requests.
 */
const FUNCTION_FETCH_LIMITS = { timeoutMs: 10_000, maxResponseBytes: 1024 * 1024 } as const;

const METHODS = new Set<NonNullable<SafeRequestOptions["method"]>>(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function methodOf(request: BridgeFetchRequest): NonNullable<SafeRequestOptions["method"]> {
  const method = request.method.toUpperCase() as NonNullable<SafeRequestOptions["method"]>;
  if (!METHODS.has(method)) throw new Error(`fetch: method ${request.method} is not supported`);
  return method;
}

function describe(error: unknown, url: string): Error {
  if (SsrfError.is(error)) return new Error(`fetch to ${url} refused: ${error.message}`);
  if (OutboundTimeoutError.is(error)) return new Error(`fetch to ${url} timed out after ${FUNCTION_FETCH_LIMITS.timeoutMs} ms`);
  if (OutboundNetworkError.is(error)) return new Error(`fetch to ${url} failed (${error.code}): ${error.message}`);
  return error instanceof Error ? error : new Error(String(error));
}

export function fetchBridge(settings: Pick<Settings, "allowPrivateNetwork">): HostBridge["fetch"] {
  return async (request: BridgeFetchRequest): Promise<BridgeFetchResponse> => {
    const method = methodOf(request);
    const headers: Record<string, string> = { "user-agent": "svc-functions/1.0" };
    for (const [name, value] of request.headers) headers[name.toLowerCase()] = value;
    try {
      const body = request.body_base64 === null ? undefined : Buffer.from(request.body_base64, "base64");
      const response = await safeRequest(request.url, {
        method,
        headers,
        ...(body !== undefined && method !== "GET" && method !== "HEAD" ? { body } : {}),
        timeoutMs: FUNCTION_FETCH_LIMITS.timeoutMs,
        maxResponseBytes: FUNCTION_FETCH_LIMITS.maxResponseBytes,
        allowPrivateNetwork: settings.allowPrivateNetwork,
      });
      if (response.truncated) throw new Error(`fetch to ${request.url}: the response is larger than 1 MiB`);
      return {
        status: response.status,
        status_text: "",
        headers: Object.entries(response.headers),
        body_base64: response.body.toString("base64"),
        url: request.url,
      };
    } catch (error) {
      throw describe(error, request.url);
    }
  };
}
