// Local tools for a webhook receiver: send it a signed sample, check a delivery's signatures.
import { readFile } from "node:fs/promises";
import { newId } from "@/lib/ids";
import { isValidWebhookSecret } from "@/lib/domain/projects/secrets";
import { isSampleEventType, SAMPLE_EVENT_TYPES, samplePayload } from "@/lib/domain/webhooks/samples";
import { checkStandardWebhook, DEFAULT_TOLERANCE_SECONDS, serializeDelivery, signatureHeaders, verifySvcSignature } from "@/lib/domain/webhooks/signing";
import type { Command } from "./command";
import { required } from "./flags";

const WEBHOOK_TIMEOUT_MS = 10_000;
const RESPONSE_EXCERPT_BYTES = 500;

function webhookSecret(flags: Record<string, string | boolean | undefined>): string {
  const secret = required(flags, "secret");
  if (!isValidWebhookSecret(secret)) throw new Error("--secret must be a project webhook secret: 'whsec_' + base64 of 24 to 64 bytes.");
  return secret;
}

/** The first `limit` bytes of a response body; the rest is not read. */
async function bodyExcerpt(response: Response, limit: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, limit).toString("utf8");
}

export const webhookCommands: Command[] = [
  {
    group: "webhooks",
    name: "trigger",
    summary: `--url <u> --secret <whsec_...> [--event <type>]: post a signed sample delivery (default message.received)`,
    options: { url: { type: "string" }, secret: { type: "string" }, event: { type: "string" } },
    async run(flags, io) {
      const secret = webhookSecret(flags);
      const url = required(flags, "url");
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        throw new Error(`--url '${url}' is not a URL.`);
      }
      if (target.protocol !== "https:" && target.protocol !== "http:") throw new Error("--url must be an http(s) URL.");
      const event = typeof flags.event === "string" && flags.event !== "" ? flags.event : "message.received";
      if (!isSampleEventType(event)) throw new Error(`--event must be one of: ${SAMPLE_EVENT_TYPES.join(", ")}.`);
      // The same body and headers as a real delivery, with a fresh event id.
      const now = new Date();
      const eventId = newId("event", now.getTime());
      const body = serializeDelivery(event, samplePayload(event), now);
      // Same content-type and user-agent as lib/domain/webhooks/attempt.ts.
      const headers = {
        "content-type": "application/json",
        "user-agent": "svc-webhooks/1.0",
        ...signatureHeaders({ eventId, eventType: event, body, secrets: [secret], timestamp: now }),
      };
      // No SSRF guard on purpose: this is a local test tool the user runs against a URL of their own
      // choosing (often localhost). Real deliveries go through the private-network guard instead.
      let response: Response;
      try {
        response = await fetch(target, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS) });
      } catch (error) {
        if (error instanceof Error && error.name === "TimeoutError")
          throw new Error(`No answer from ${target.href} within ${WEBHOOK_TIMEOUT_MS / 1000} s.`, { cause: error });
        const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
        throw new Error(`Could not reach ${target.href}: ${cause}`, { cause: error });
      }
      io.out(`POST ${target.href}  ${event}  x-svc-delivery: ${eventId}`);
      io.out(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`);
      const excerpt = await bodyExcerpt(response, RESPONSE_EXCERPT_BYTES);
      if (excerpt) io.out(excerpt);
      if (response.status < 200 || response.status > 299)
        throw new Error(`The receiver answered ${response.status}, not 2xx: real deliveries would be retried.`);
    },
  },
  {
    group: "webhooks",
    name: "verify",
    summary:
      "--secret <s> --signature <x-svc-signature> [--previous-signature <x-svc-signature-previous>] --body-file <f> [--id --timestamp --standard-signature] [--tolerance S]",
    options: {
      secret: { type: "string" },
      signature: { type: "string" },
      "previous-signature": { type: "string" },
      "body-file": { type: "string" },
      id: { type: "string" },
      timestamp: { type: "string" },
      "standard-signature": { type: "string" },
      tolerance: { type: "string" },
    },
    async run(flags, io) {
      const secret = required(flags, "secret");
      const signature = required(flags, "signature");
      const file = required(flags, "body-file");
      const standard = ["id", "timestamp", "standard-signature"].filter((name) => typeof flags[name] === "string" && flags[name] !== "");
      if (standard.length !== 0 && standard.length !== 3)
        throw new Error("--id, --timestamp and --standard-signature go together (the webhook-id, webhook-timestamp and webhook-signature headers).");
      const tolerance = flags.tolerance === undefined ? DEFAULT_TOLERANCE_SECONDS : Number(flags.tolerance);
      if (!Number.isInteger(tolerance) || tolerance < 0) throw new Error("--tolerance must be a whole number of seconds.");
      // The exact bytes: signatures cover the raw body, so the file is never decoded or re-encoded.
      let body: Buffer;
      try {
        body = await readFile(file);
      } catch (error) {
        throw new Error(`Cannot read --body-file '${file}': ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
      }
      // --signature takes either header's value (a receiver may hold the new or the previous secret);
      // --previous-signature the x-svc-signature-previous value sent during a rotation overlap.
      const previous = typeof flags["previous-signature"] === "string" && flags["previous-signature"] !== "" ? flags["previous-signature"] : null;
      const given: [string, string][] = [["--signature", signature], ...(previous ? [["--previous-signature", previous] as [string, string]] : [])];
      for (const [flag, value] of given) {
        if (!/^\s*sha256=[0-9a-fA-F]{64}\s*$/.test(value)) {
          throw new Error(`invalid: ${flag} must be one header value (x-svc-signature or x-svc-signature-previous), sha256=<64 hex digits>.`);
        }
      }
      const matchedCurrent = verifySvcSignature(secret, body, signature);
      const matchedPrevious = previous !== null && verifySvcSignature(secret, body, previous);
      if (!matchedCurrent && !matchedPrevious) {
        throw new Error(
          previous
            ? "invalid: neither x-svc-signature nor x-svc-signature-previous matches this secret and body."
            : "invalid: x-svc-signature does not match this secret and body.",
        );
      }
      if (standard.length === 3) {
        const headers = {
          "webhook-id": String(flags.id),
          "webhook-timestamp": String(flags.timestamp),
          "webhook-signature": String(flags["standard-signature"]),
        };
        const check = checkStandardWebhook(secret, headers, body, { toleranceSeconds: tolerance, now: new Date() });
        if (!check.valid) throw new Error(`invalid: ${check.reason}${check.reason.startsWith("webhook-timestamp is") ? " (widen with --tolerance)" : ""}.`);
      }
      io.out("valid");
      const checked = [
        "x-svc-signature",
        ...(previous ? ["x-svc-signature-previous"] : []),
        ...(standard.length === 3 ? ["webhook-signature", "webhook-timestamp"] : []),
      ];
      io.out(`# checked: ${checked.length > 1 ? `${checked.slice(0, -1).join(", ")} and ${checked[checked.length - 1]}` : checked[0]}`);
      if (!matchedCurrent)
        io.out("# matched x-svc-signature-previous: this is the previous secret, which stops signing 24 h after the rotation; switch to the new one.");
    },
  },
];
