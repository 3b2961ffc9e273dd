/**
 * How the CLI's HTTP commands (config, login, logout, listen) use @svc/sdk, the typed client API users
 * install: the SDK sends (types, retries on 429/503, idempotency keys); this adds what a terminal
 * needs, an error that says what to check when the server cannot be reached, and an API refusal
 * printed as `HTTP 403 insufficient_scope: <message>`.
 */
import { SvcApiError, unwrap } from "@svc/sdk";
import { errorKind } from "@/lib/error-kind";

/** How to name the server in an unreachable error, what to check then, and how long an attempt may take. */
export interface Reach {
  where: string;
  hint: string;
  timeoutMs: number;
}

/**
 * The SDK's fetch for a command: an attempt that gets no answer (refused, reset, DNS, or none within
 * `timeoutMs`) becomes an error naming the server and what to check, since a wrong --url or a
 * stopped server is the usual cause. The SDK retries it first when that is safe.
 */
export function reportingFetch(reach: Reach): typeof fetch {
  return async (input, init) => {
    const given = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const signal = given ? AbortSignal.any([given, AbortSignal.timeout(reach.timeoutMs)]) : AbortSignal.timeout(reach.timeoutMs);
    try {
      return await fetch(input, { ...init, signal });
    } catch (failure) {
      const cause = failure instanceof Error && failure.cause instanceof Error ? failure.cause.message : String(failure);
      throw new Error(`Could not reach ${reach.where}: ${cause}. ${reach.hint}`, { cause: failure });
    }
  };
}

/** An answer that is not 2xx, as the CLI prints it; the SDK's error (status, code, body) is kept. */
export class ApiRefusal extends errorKind("ApiRefusal") {
  override readonly name = "ApiRefusal";
  readonly status: number;
  readonly body: SvcApiError["body"];

  constructor(readonly refusal: SvcApiError) {
    super(refusalLine(refusal), { cause: refusal });
    this.status = refusal.status;
    this.body = refusal.body;
  }
}

/** `HTTP 403 insufficient_scope: <message>`; the code only when the answer was the API's error body, `HTTP 502 Bad Gateway` for an empty one. */
export function refusalLine(refusal: SvcApiError): string {
  const { status, body, code, message, response } = refusal;
  if (!body && message === `HTTP ${status}`) return `HTTP ${status}${response.statusText ? ` ${response.statusText}` : ""}`;
  return `HTTP ${status}${body ? ` ${code}` : ""}: ${message}`;
}

/** An SDK call's data (the SDK's unwrap), its refusal thrown as an ApiRefusal: `await answerOf(api.GET("/config"))`. */
export async function answerOf<T extends { data?: unknown; error?: unknown; response: Response }>(call: Promise<T>): Promise<NonNullable<T["data"]>> {
  try {
    return await unwrap(call);
  } catch (error) {
    throw SvcApiError.is(error) ? new ApiRefusal(error) : error;
  }
}
