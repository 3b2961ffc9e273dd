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

/**
 * What to do about a refused address on this machine or a private network: the deployment's policy
 * allows them (a local receiver while developing against a production build is the usual case).
 */
export const PRIVATE_NETWORK_NEXT_STEP =
  "To deliver to a receiver on localhost or your private network, start the server with SVC_ALLOW_PRIVATE_NETWORK=true " +
  "(npm run dev allows them already); otherwise give the receiver's public https:// address.";

interface Refusal {
  problem: string;
  /** Refused for its address (not a metadata endpoint): SVC_ALLOW_PRIVATE_NETWORK=true would allow it. */
  privateAddress: boolean;
}

async function refusalOf(url: string, allowPrivate: boolean | undefined): Promise<Refusal | null> {
  try {
    await assertPublicUrl(url, ...(allowPrivate === undefined ? [] : [allowPrivate]));
    return null;
  } catch (error) {
    if (SsrfError.is(error)) return { problem: error.reason, privateAddress: error.address !== null && error.reason !== "metadata" };
    if (OutboundNetworkError.is(error)) return { problem: error.message, privateAddress: false };
    throw error;
  }
}

/** Why `url` may not be stored, or null when it may. */
export async function outboundUrlProblem(url: string, allowPrivate?: boolean): Promise<string | null> {
  return (await refusalOf(url, allowPrivate))?.problem ?? null;
}

/** 400 invalid_request naming `field` when `url` may not be stored; a private address's answer says how to allow it. */
export async function assertOutboundUrl(field: string, url: string, allowPrivate?: boolean): Promise<void> {
  const refusal = await refusalOf(url, allowPrivate);
  if (refusal === null) return;
  const next = refusal.privateAddress ? ` ${PRIVATE_NETWORK_NEXT_STEP}` : "";
  throw new SvcError("invalid_request", `${field} is not allowed: ${refusal.problem}.${next}`, { issues: { [field]: [`${OUTBOUND_URL_RULE}${next}`] } });
}
