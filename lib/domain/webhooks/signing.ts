import { createHmac } from "node:crypto";
import { constantTimeEqual } from "@/lib/crypto/secrets";
import { isValidWebhookSecret } from "@/lib/domain/projects/secrets";

/**
 * Webhook delivery signing (docs/spec/service-spec.md: Events → Delivery; docs/spec/decisions.md "Webhook delivery").
 *
 * Every delivery carries two signatures over the same raw body:
 * - `x-svc-signature: sha256=<hex>`: HMAC-SHA256 of the exact raw body, keyed by the UTF-8 bytes of the
 *   whole secret string (`whsec_` prefix included);
 * - Standard Webhooks: `webhook-id`, `webhook-timestamp` (unix seconds) and `webhook-signature:
 *   v1,<base64>`, the HMAC-SHA256 of `<id>.<timestamp>.<body>` keyed by the base64-decoded part of the
 *   secret after `whsec_`, so receivers can use the standard libraries and reject replays by timestamp.
 *
 * During a rotation both the current and the previous secret sign (docs/spec/decisions.md "Webhook delivery"):
 * - `x-svc-signature` still holds exactly ONE value, the current secret's `sha256=<hex>`: GitHub-style
 *   verifiers (e.g. @octokit/webhooks-methods) compare the whole header with `sha256=<hex>`, so a list
 *   there would fail every one of them right after a rotation;
 * - the previous secret's `sha256=<hex>` goes in its own header, `x-svc-signature-previous`;
 * - `webhook-signature` lists both space-separated (`v1,<new> v1,<old>`), as Standard Webhooks defines.
 * A receiver still holding the previous secret checks `x-svc-signature-previous` (or the v1 list).
 */

export type RawBody = string | Uint8Array;

/** What a receiver got as headers: a fetch `Headers`, or Node's `IncomingHttpHeaders`-like record. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The current secret's signature: always exactly one `sha256=<hex>`. */
const SVC_SIGNATURE_HEADER = "x-svc-signature";
/** The previous secret's signature, only during a rotation overlap: one `sha256=<hex>`. */
const SVC_SIGNATURE_PREVIOUS_HEADER = "x-svc-signature-previous";

/** The exact raw body of a delivery: `{"event":..,"payload":..,"sentAt":"<ISO>"}` in that key order. */
export function serializeDelivery(event: string, payload: unknown, sentAt: Date): string {
  // JSON.stringify would drop an undefined payload and the key with it; the body always has all three.
  return JSON.stringify({ event, payload: payload === undefined ? null : payload, sentAt: sentAt.toISOString() });
}

export interface SignatureInput {
  /** The event id: stable across retries (`x-svc-delivery` and `webhook-id`). */
  eventId: string;
  eventType: string;
  /** The exact raw body that is sent (see serializeDelivery). */
  body: string;
  /**
   * Signing secrets: the current one, then the previous one during a rotation (at most two); empty:
   * signing off.
   */
  secrets: string[];
  /** When this attempt is signed: `webhook-timestamp` (each attempt signs afresh). */
  timestamp: Date;
}

/**
 * The headers of one delivery attempt. With no secret (signing off) there is no signature header, only
 * `x-svc-event`, `x-svc-delivery`, `webhook-id` and `webhook-timestamp`. Throws for a secret that is not
 * `whsec_` + base64 of 24 to 64 bytes (projects only store such secrets), or for more than two secrets.
 */
export function signatureHeaders(input: SignatureInput): Record<string, string> {
  const unix = unixSeconds(input.timestamp);
  const headers: Record<string, string> = {
    "x-svc-event": input.eventType,
    "x-svc-delivery": input.eventId,
    "webhook-id": input.eventId,
    "webhook-timestamp": String(unix),
  };
  const secrets = [...new Set(input.secrets.filter((s) => s !== ""))];
  if (!secrets.length) return headers;
  if (secrets.length > 2) throw new Error("A delivery is signed by the current secret and at most one previous secret.");
  for (const secret of secrets) {
    if (!isValidWebhookSecret(secret)) throw new Error("A webhook signing secret must be 'whsec_' + base64 of 24 to 64 bytes.");
  }
  const [current, previous] = secrets;
  headers[SVC_SIGNATURE_HEADER] = `sha256=${svcSignatureHex(current!, input.body)}`;
  if (previous) headers[SVC_SIGNATURE_PREVIOUS_HEADER] = `sha256=${svcSignatureHex(previous, input.body)}`;
  headers["webhook-signature"] = secrets.map((s) => `v1,${standardSignature(s, input.eventId, unix, input.body)}`).join(" ");
  return headers;
}

/** Hex HMAC-SHA256 of the raw body keyed by the UTF-8 bytes of the whole secret string. */
function svcSignatureHex(secret: string, rawBody: RawBody): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(rawBody).digest("hex");
}

/**
 * True when `header` (the value of `x-svc-signature` or `x-svc-signature-previous`: one `sha256=<hex>`,
 * surrounding spaces and upper-case hex tolerated) is the signature of `rawBody` under `secret`.
 * Compared in constant time. A list of values is not a valid header value.
 */
export function verifySvcSignature(secret: string, rawBody: RawBody, header: string | null | undefined): boolean {
  if (!secret || !header) return false;
  const m = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  return m !== null && constantTimeEqual(m[1]!.toLowerCase(), svcSignatureHex(secret, rawBody));
}

/** Which signature header matched a secret: the current one, or the previous one during a rotation. */
export type SvcSignatureMatch = typeof SVC_SIGNATURE_HEADER | typeof SVC_SIGNATURE_PREVIOUS_HEADER | null;

/**
 * A receiver's check of both svc signature headers: `x-svc-signature` (the current secret), then
 * `x-svc-signature-previous` (the previous secret, sent only during a rotation overlap). Returns the
 * header that matched `secret`, or null. Both are always compared, so the time taken does not tell which.
 */
export function matchSvcSignature(secret: string, headers: HeaderSource, rawBody: RawBody): SvcSignatureMatch {
  const current = verifySvcSignature(secret, rawBody, header(headers, SVC_SIGNATURE_HEADER));
  const previous = verifySvcSignature(secret, rawBody, header(headers, SVC_SIGNATURE_PREVIOUS_HEADER));
  return current ? SVC_SIGNATURE_HEADER : previous ? SVC_SIGNATURE_PREVIOUS_HEADER : null;
}

export interface StandardVerifyOptions {
  /** Largest accepted distance between `webhook-timestamp` and now, either way. Default 300 s. */
  toleranceSeconds?: number;
  /** The receiver's now, which the timestamp is held against (a test's clock, or the CLI's wall clock). */
  now: Date;
}

export type StandardCheck = { valid: true } | { valid: false; reason: string };

/**
 * verifyStandardWebhook with the reason of a failure (for tools such as the CLI): missing headers,
 * an unusable secret, a stale or future timestamp, or no matching `v1` signature.
 */
export function checkStandardWebhook(secret: string, headers: HeaderSource, rawBody: RawBody, options: StandardVerifyOptions): StandardCheck {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.now;
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signature = header(headers, "webhook-signature");
  if (!id || !timestamp || !signature) return { valid: false, reason: "missing webhook-id, webhook-timestamp or webhook-signature" };
  if (!isValidWebhookSecret(secret)) return { valid: false, reason: "the secret is not 'whsec_' + base64 of 24 to 64 bytes" };
  if (!/^\d{1,12}$/.test(timestamp)) return { valid: false, reason: "webhook-timestamp is not unix seconds" };
  const unix = Number(timestamp);
  const expected = standardSignature(secret, id, unix, rawBody);
  let matched = false;
  for (const entry of signature.split(" ")) {
    const comma = entry.indexOf(",");
    if (comma < 0 || entry.slice(0, comma) !== "v1") continue;
    if (constantTimeEqual(entry.slice(comma + 1), expected)) matched = true;
  }
  if (!matched) return { valid: false, reason: "no webhook-signature entry matches" };
  const skew = unixSeconds(now) - unix;
  if (Math.abs(skew) > tolerance) {
    return { valid: false, reason: `webhook-timestamp is ${Math.abs(skew)} s ${skew > 0 ? "old" : "in the future"} (tolerance ${tolerance} s)` };
  }
  return { valid: true };
}

/**
 * Standard Webhooks verification: a `v1,<base64>` entry of `webhook-signature` (space-separated during a
 * rotation) matches `<webhook-id>.<webhook-timestamp>.<raw body>` under the decoded secret, and the
 * timestamp is within `toleranceSeconds` of now (replays of old deliveries are refused).
 */
export function verifyStandardWebhook(secret: string, headers: HeaderSource, rawBody: RawBody, options: StandardVerifyOptions): boolean {
  return checkStandardWebhook(secret, headers, rawBody, options).valid;
}

function standardSignature(secret: string, id: string, unix: number, rawBody: RawBody): string {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  return createHmac("sha256", key).update(`${id}.${unix}.`).update(rawBody).digest("base64");
}

function unixSeconds(at: Date): number {
  const ms = at.getTime();
  if (Number.isNaN(ms)) throw new RangeError("Invalid timestamp");
  return Math.floor(ms / 1000);
}

function header(headers: HeaderSource, name: string): string | null {
  if (typeof (headers as Headers).get === "function" && typeof (headers as Headers).has === "function") {
    return (headers as Headers).get(name);
  }
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() !== name) continue;
    if (Array.isArray(value)) return value.join(" ");
    return value ?? null;
  }
  return null;
}
