import { SvcError } from "@/lib/errors";
import { OutboundNetworkError, SsrfError, assertPublicUrl } from "@/lib/ports/net/safe-request";

/**
 * The write-time half of the SSRF guard, for every URL a customer stores for us to call later
 * (a project's webhook_url, a flow's data_exchange_url): loopback, private, link-local and metadata
 * addresses are refused when the URL is saved, not only when it is called (docs/api-decisions.md
 * "Flows"). The guard at connect time (safeRequest) still runs: DNS can change after the save.
 * `allowPrivate` undefined: the deployment's policy (SVC_ALLOW_PRIVATE_NETWORK).
 */
export const OUTBOUND_URL_RULE = "Must be a public http(s) URL: private, loopback, link-local and metadata addresses are refused.";

/** Why `url` may not be stored, or null when it may. */
export async function outboundUrlProblem(url: string, allowPrivate?: boolean): Promise<string | null> {
  try {
    await assertPublicUrl(url, ...(allowPrivate === undefined ? [] : [allowPrivate]));
    return null;
  } catch (error) {
    if (SsrfError.is(error)) return error.reason;
    if (OutboundNetworkError.is(error)) return error.message;
    throw error;
  }
}

/** 400 invalid_request naming `field` when `url` may not be stored. */
export async function assertOutboundUrl(field: string, url: string, allowPrivate?: boolean): Promise<void> {
  const problem = await outboundUrlProblem(url, allowPrivate);
  if (problem !== null) throw new SvcError("invalid_request", `${field} is not allowed: ${problem}.`, { issues: { [field]: [OUTBOUND_URL_RULE] } });
}
