import { signPayload } from "@/lib/ports/provider/app-secret";
import type { ProviderPlatform } from "@/lib/ports/provider/types";
import type { SimulatorContext } from "@/lib/simulator/context";
import type { Envelope } from "@/lib/simulator/envelopes";

/**
 * Getting one signed webhook to our endpoint, as the provider does:
 * `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the platform's app secret>`,
 * and, when the endpoint does not take it (any answer but 2xx, no answer within 10 s, a refused
 * connection), again later. The provider retries "with decreasing frequency" for up to 7 days; the
 * simulator keeps that shape on a development scale (docs/api-decisions.md "The built-in simulator's
 * webhook retries and memory"): attempts at once, then 0.5 s, 1 s, 2 s, 4 s, 8 s, 15 s, 30 s, 1 min,
 * 2 min and three times 5 min after the previous one, 13 attempts over about 19 minutes, then it gives
 * up (logged).
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000, 60_000, 120_000, 300_000, 300_000, 300_000];
const WEBHOOK_TIMEOUT_MS = 10_000;

export type PostOutcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

/** One signed POST. Resolves with the HTTP status, or the network error; never throws. */
export async function postSigned(ctx: SimulatorContext, platform: ProviderPlatform, payload: Envelope): Promise<PostOutcome> {
  const raw = JSON.stringify(payload);
  try {
    const response = await fetch(ctx.webhookUrl(platform), {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        // Our endpoint answers a few bytes; fetch would otherwise ask for (and Next spend CPU on) gzip.
        "Accept-Encoding": "identity",
        "User-Agent": "facebookexternalua",
        "X-Hub-Signature-256": signPayload(ctx.appSecret(platform), raw),
      },
      body: raw,
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    await response.arrayBuffer().catch(() => undefined);
    return response.ok ? { ok: true, status: response.status } : { ok: false, status: response.status, error: `HTTP ${response.status}` };
  } catch (error) {
    return { ok: false, status: null, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Status callbacks in flight at once. The simulator runs inside the web process it posts to: unbounded,
 * a burst of sends would queue thousands of callbacks in front of every API request, where a real
 * provider spreads them over its own workers. Beyond this they wait their turn (in order). A retry
 * waiting for its time holds no place.
 */
const CALLBACKS_IN_FLIGHT = 16;
let callbacksInFlight = 0;
const waitingCallbacks: (() => void)[] = [];

async function postInTurn(ctx: SimulatorContext, platform: ProviderPlatform, payload: Envelope): Promise<PostOutcome> {
  if (callbacksInFlight >= CALLBACKS_IN_FLIGHT) await new Promise<void>((resolve) => waitingCallbacks.push(resolve));
  else callbacksInFlight++;
  try {
    return await postSigned(ctx, platform, payload);
  } finally {
    // The slot passes straight to the next in line, so the count stays as it is.
    const next = waitingCallbacks.shift();
    if (next) next();
    else callbacksInFlight--;
  }
}

export interface DeliveryAttempt {
  /** When the attempt started (ms since the epoch). */
  at: number;
  /** Our endpoint's HTTP status; null when it did not answer. */
  status: number | null;
  error?: string;
}

/** taken: the endpoint answered 2xx. gave_up: the last attempt of the schedule failed too. reset: the simulator was reset meanwhile. */
export type DeliveryEnd = "taken" | "gave_up" | "reset";

export interface Delivery {
  readonly attempts: readonly DeliveryAttempt[];
  /** When the next attempt is due (ms since the epoch); null once taken, given up or reset. */
  nextAttemptAt(): number | null;
  readonly settled: Promise<DeliveryEnd>;
  /** Resolves after the next attempt's outcome is known (or at once when settled). */
  nextOutcome(): Promise<void>;
}

/**
 * Posts the webhook and retries it on the schedule until our endpoint takes it; runs on by itself
 * (never throws), so a caller may stop waiting and leave it to finish in the background.
 * `inTurn`: status callbacks share the in-flight limit above; a customer's message goes at once.
 */
export function deliver(ctx: SimulatorContext, platform: ProviderPlatform, payload: Envelope, what: string, options: { inTurn?: boolean } = {}): Delivery {
  const delays = ctx.webhookRetryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
  const post = options.inTurn === false ? postSigned : postInTurn;
  const attempts: DeliveryAttempt[] = [];
  let next: number | null = Date.now();
  let waiters: (() => void)[] = [];
  const notify = () => {
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };
  const settled = (async (): Promise<DeliveryEnd> => {
    for (let attempt = 0; ; attempt++) {
      const at = Date.now();
      const outcome = await post(ctx, platform, payload);
      attempts.push(outcome.ok ? { at, status: outcome.status } : { at, status: outcome.status, error: outcome.error });
      const delay = delays[attempt];
      next = outcome.ok || delay === undefined ? null : Date.now() + delay;
      notify();
      if (outcome.ok) return "taken";
      if (delay === undefined) {
        ctx.log(`gave up on the ${what} webhook after ${attempts.length} attempts`, outcome.error);
        return "gave_up";
      }
      if (!(await ctx.sleep(delay))) {
        next = null;
        notify();
        return "reset";
      }
    }
  })();
  return {
    attempts,
    nextAttemptAt: () => next,
    settled,
    nextOutcome: () => (next === null && attempts.length > 0 ? Promise.resolve() : new Promise<void>((wake) => waiters.push(wake))),
  };
}

/** A webhook delivered with the retries above. Resolves false only if the simulator was reset meanwhile (the caller must stop). */
export async function postWithRetries(ctx: SimulatorContext, platform: ProviderPlatform, payload: Envelope, what: string): Promise<boolean> {
  return (await deliver(ctx, platform, payload, what).settled) !== "reset";
}
