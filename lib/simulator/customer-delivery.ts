import type { ProviderPlatform } from "@/lib/ports/provider/types";
import type { SimulatorContext } from "@/lib/simulator/context";
import { deliver, WEBHOOK_RETRY_DELAYS_MS, type Delivery, type DeliveryAttempt, type DeliveryEnd } from "@/lib/simulator/delivery";
import type { Envelope } from "@/lib/simulator/envelopes";
import { json } from "@/lib/simulator/http";

/**
 * How `POST /customer/messages` answers: only once our webhook endpoint took the message (200), never
 * on the strength of a send alone. An endpoint that is not there yet (a dev server still compiling
 * the route, an app restarting) is retried on the provider's schedule (delivery.ts) while the request
 * waits, up to CUSTOMER_WAIT_MS; past that, or when the endpoint plainly refuses (a 4xx such as a bad
 * signature), the answer says so and that the simulator keeps retrying in the background:
 *   200 {message_id, delivered_status, attempts}
 *   504 / 502 {error:{message}, message_id, delivered_status (last answer, null if none), attempts, retrying, next_attempt_at?}
 */
// Below the sandbox phone's own 25 s wait for the simulator (lib/domain/sandbox-phone/simulator.ts).
const CUSTOMER_WAIT_MS = 15_000;

/** These 4xx say "later", not "no": the request waits for the next attempt as for a 5xx. */
const TRANSIENT_4XX = new Set([408, 425, 429]);

function refused(attempt: DeliveryAttempt | undefined): boolean {
  return attempt?.status != null && attempt.status >= 400 && attempt.status < 500 && !TRANSIENT_4XX.has(attempt.status);
}

/** Until the delivery settles, the endpoint refuses, or the deadline passes ("waiting"). */
async function waitFor(delivery: Delivery, waitMs: number): Promise<DeliveryEnd | "waiting"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<"waiting">((resolve) => (timer = setTimeout(() => resolve("waiting"), waitMs)));
  try {
    for (;;) {
      const outcome = await Promise.race([delivery.settled, delivery.nextOutcome().then(() => null), expired]);
      if (outcome !== null) return outcome;
      if (refused(delivery.attempts.at(-1))) return "waiting";
    }
  } finally {
    clearTimeout(timer);
  }
}

function describe(attempt: DeliveryAttempt | undefined): string {
  if (!attempt) return "no attempt yet";
  return attempt.status !== null ? `HTTP ${attempt.status}` : (attempt.error ?? "no answer");
}

export async function deliverCustomerMessage(
  ctx: SimulatorContext,
  platform: ProviderPlatform,
  envelope: Envelope,
  messageId: string,
  what: string,
): Promise<Response> {
  const delivery = deliver(ctx, platform, envelope, what, { inTurn: false });
  const end = await waitFor(delivery, ctx.customerWaitMs ?? CUSTOMER_WAIT_MS);
  const last = delivery.attempts.at(-1);
  const count = delivery.attempts.length;
  const answer = { message_id: messageId, delivered_status: last?.status ?? null, attempts: count };
  if (end === "taken") return json(200, answer);

  const url = ctx.webhookUrl(platform);
  const tries = `${count} attempt${count === 1 ? "" : "s"}`;
  if (end === "gave_up") {
    const message = `${url} did not take the message in ${tries} (last: ${describe(last)}), and the simulator gave up on it as the provider does after its retries. Make the endpoint answer 2xx (the app's log says why it did not), then send the message again.`;
    return json(502, { error: { message }, ...answer, retrying: false });
  }
  if (end === "reset") {
    return json(502, { error: { message: `The simulator was reset before ${url} took the message. Send it again.` }, ...answer, retrying: false });
  }
  const delays = ctx.webhookRetryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
  const nextAt = delivery.nextAttemptAt();
  const next = nextAt === null ? null : new Date(nextAt).toISOString();
  const minutes = Math.max(1, Math.round(delays.reduce((sum, ms) => sum + ms, 0) / 60_000));
  const state = refused(last) ? `${url} refused the message (${describe(last)}).` : `${url} has not taken the message yet (${tries}, last: ${describe(last)}).`;
  const message =
    `${state} The simulator keeps retrying in the background as the provider does (${delays.length + 1} attempts over about ${minutes} min${next ? `, the next at ${next}` : ""}): ` +
    "it arrives once the endpoint answers 2xx, so do not send it again. The app's log says why the endpoint did not take it.";
  return json(refused(last) ? 502 : 504, { error: { message }, ...answer, retrying: true, next_attempt_at: next });
}
