import type { ProjectRow } from "@/lib/domain/context";
import { activeWebhookSecrets } from "@/lib/domain/projects";
import { signatureHeaders } from "@/lib/domain/webhooks/signing";
import { newId } from "@/lib/ids";
import { OutboundNetworkError, OutboundTimeoutError, SsrfError, safeRequest } from "@/lib/ports/net/safe-request";

/**
 * The hop to the business (docs/spec/decisions.md "Flows", DATA_EXCHANGE): the decrypted request as
 * plain JSON, signed exactly like a webhook delivery with the project's webhook secret (so receivers
 * reuse their webhook verification), through the SSRF guard, within 8 s because the provider gives up
 * on us at 10 s. Never throws for the business's faults: they come back as a reason to log.
 */
const DATA_EXCHANGE_TIMEOUT_MS = 8_000;
/** The x-svc-event of a forwarded exchange. */
const DATA_EXCHANGE_EVENT = "flow.data_exchange";
/** The provider caps what a screen may carry far below this; a bigger answer is nonsense. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** The forwarded body, exactly these keys (the contract). */
export interface DataExchangeRequest {
  action: string;
  screen: string | null;
  data: Record<string, unknown> | null;
  flow_token: string;
  flow_id: string;
  version: string | null;
  contact_id: string | null;
  dispatch_id: string;
}

export interface ForwardOptions {
  timeoutMs?: number;
  /** Defaults to the deployment's policy (SVC_ALLOW_PRIVATE_NETWORK); tests force false to see the guard. */
  allowPrivateNetwork?: boolean;
}

export type ForwardOutcome = { ok: true; value: unknown } | { ok: false; reason: string };

export async function forwardToDataUrl(
  target: { url: string; project: ProjectRow; now: Date },
  request: DataExchangeRequest,
  options: ForwardOptions = {},
): Promise<ForwardOutcome> {
  const timeoutMs = options.timeoutMs ?? DATA_EXCHANGE_TIMEOUT_MS;
  const body = JSON.stringify(request);
  const headers = {
    "content-type": "application/json",
    "user-agent": "svc-flows/1.0",
    ...signatureHeaders({
      eventId: newId("request", target.now.getTime()),
      eventType: DATA_EXCHANGE_EVENT,
      body,
      secrets: activeWebhookSecrets(target.project, target.now),
      timestamp: target.now,
    }),
  };
  try {
    const res = await safeRequest(target.url, {
      method: "POST",
      headers,
      body,
      timeoutMs,
      maxResponseBytes: MAX_ANSWER_BYTES,
      allowPrivateNetwork: options.allowPrivateNetwork,
    });
    if (res.status < 200 || res.status > 299) return { ok: false, reason: `data_exchange_url answered HTTP ${res.status}` };
    if (res.truncated) return { ok: false, reason: `data_exchange_url answered more than ${MAX_ANSWER_BYTES} bytes` };
    try {
      return { ok: true, value: JSON.parse(res.body.toString("utf8")) as unknown };
    } catch {
      return { ok: false, reason: "data_exchange_url answered something that is not JSON" };
    }
  } catch (error) {
    if (OutboundTimeoutError.is(error)) return { ok: false, reason: `data_exchange_url did not answer within ${timeoutMs} ms` };
    if (SsrfError.is(error)) return { ok: false, reason: `data_exchange_url refused by the SSRF guard (${error.reason}): ${error.message}` };
    if (OutboundNetworkError.is(error)) return { ok: false, reason: `data_exchange_url unreachable (${error.code}): ${error.message}` };
    throw error;
  }
}
