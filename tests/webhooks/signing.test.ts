import crypto, { createHmac, timingSafeEqual } from "node:crypto";
import { verify as githubStyleVerify } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { VERIFY_SNIPPET } from "@/components/overview/verify-snippet";
import { generateWebhookSecret } from "@/lib/domain/projects/secrets";
import { SAMPLE_EVENT_TYPES, samplePayload } from "@/lib/domain/webhooks/samples";
import { matchSvcSignature, serializeDelivery, signatureHeaders, verifyStandardWebhook, verifySvcSignature } from "@/lib/domain/webhooks/signing";

const EVENT_ID = "evt_01kvd1nwz04fjpg4r7m40c91zx";

/** An independent x-svc-signature: hex HMAC-SHA256 of the raw body keyed by the whole secret string. */
function expectedSvc(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;
}

/** An independent Standard Webhooks signature: base64 HMAC of `id.ts.body` keyed by the decoded secret. */
function expectedStandard(secret: string, id: string, unix: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${unix}.${body}`, "utf8").digest("base64")}`;
}

function constantTimeMatches(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function delivery(secrets: string[], at = new Date(), payload: unknown = samplePayload("message.received")) {
  const body = serializeDelivery("message.received", payload, at);
  const headers = signatureHeaders({ eventId: EVENT_ID, eventType: "message.received", body, secrets, timestamp: at });
  return { body, headers, unix: Math.floor(at.getTime() / 1000) };
}

describe("serializeDelivery", () => {
  it("is the exact raw body {event, payload, sentAt} in that key order", () => {
    const at = new Date("2026-06-18T09:41:07.123Z");
    const body = serializeDelivery("message.status", { status: "read", text: "é 👋" }, at);
    expect(body).toBe('{"event":"message.status","payload":{"status":"read","text":"é 👋"},"sentAt":"2026-06-18T09:41:07.123Z"}');
    expect(Object.keys(JSON.parse(body))).toEqual(["event", "payload", "sentAt"]);
  });

  it("keeps the payload key when the payload is undefined", () => {
    expect(serializeDelivery("x", undefined, new Date(0))).toBe('{"event":"x","payload":null,"sentAt":"1970-01-01T00:00:00.000Z"}');
  });
});

describe("signatureHeaders", () => {
  it("signs x-svc-signature (HMAC of the raw body keyed by the secret string) and the Standard Webhooks headers", () => {
    const secret = generateWebhookSecret();
    const { body, headers, unix } = delivery([secret]);
    expect(headers["x-svc-event"]).toBe("message.received");
    expect(headers["x-svc-delivery"]).toBe(EVENT_ID);
    expect(headers["webhook-id"]).toBe(EVENT_ID);
    expect(headers["webhook-timestamp"]).toBe(String(unix));
    expect(headers["x-svc-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    // Independent HMACs, compared in constant time the way a receiver would.
    expect(constantTimeMatches(headers["x-svc-signature"]!, expectedSvc(secret, body))).toBe(true);
    expect(headers["webhook-signature"]).toBe(expectedStandard(secret, EVENT_ID, unix, body));
    // The reference library.
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(verifySvcSignature(secret, body, headers["x-svc-signature"])).toBe(true);
    expect(verifyStandardWebhook(secret, headers, body, { now: new Date() })).toBe(true);
  });

  it("verifies every sample event type, with non-ASCII bodies byte for byte", () => {
    const secret = generateWebhookSecret();
    const at = new Date();
    for (const type of SAMPLE_EVENT_TYPES) {
      const body = serializeDelivery(type, samplePayload(type), at);
      const headers = signatureHeaders({ eventId: EVENT_ID, eventType: type, body, secrets: [secret], timestamp: at });
      expect(() => new Webhook(secret).verify(body, headers), type).not.toThrow();
      expect(() => new Webhook(secret).verify(Buffer.from(body, "utf8"), headers), type).not.toThrow();
      expect(headers["x-svc-signature"], type).toBe(expectedSvc(secret, body));
      expect(verifySvcSignature(secret, Buffer.from(body, "utf8"), headers["x-svc-signature"]), type).toBe(true);
    }
  });

  it("with no secret (signing off) sends no signature header, only event, delivery id and the webhook id/timestamp", () => {
    const at = new Date("2026-06-18T09:41:07.900Z");
    const { headers } = delivery([], at);
    expect(headers).toEqual({
      "x-svc-event": "message.received",
      "x-svc-delivery": EVENT_ID,
      "webhook-id": EVENT_ID,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    });
  });

  it("refuses a secret that is not whsec_ + base64 of 24 to 64 bytes", () => {
    expect(() => delivery(["not-a-secret"])).toThrow(/whsec_/);
    expect(() => delivery([`whsec_${Buffer.alloc(8).toString("base64")}`])).toThrow(/whsec_/);
  });

  it("webhook-id stays the event id across attempts while the timestamp and signature follow the attempt", () => {
    const secret = generateWebhookSecret();
    const first = delivery([secret], new Date("2026-06-18T09:00:00Z"));
    const retry = delivery([secret], new Date("2026-06-18T09:00:10Z"));
    expect(retry.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect(retry.headers["x-svc-delivery"]).toBe(first.headers["x-svc-delivery"]);
    expect(retry.headers["webhook-timestamp"]).not.toBe(first.headers["webhook-timestamp"]);
    expect(retry.headers["webhook-signature"]).not.toBe(first.headers["webhook-signature"]);
  });
});

describe("rotation: current and previous secret both sign for 24 h", () => {
  const current = generateWebhookSecret();
  const previous = generateWebhookSecret();
  const { body, headers, unix } = delivery([current, previous]);

  it("x-svc-signature holds only the current secret's sha256, x-svc-signature-previous the previous one's; webhook-signature lists both", () => {
    expect(headers["x-svc-signature"]).toBe(expectedSvc(current, body));
    expect(headers["x-svc-signature-previous"]).toBe(expectedSvc(previous, body));
    expect(headers["webhook-signature"]).toBe(`${expectedStandard(current, EVENT_ID, unix, body)} ${expectedStandard(previous, EVENT_ID, unix, body)}`);
  });

  it("a GitHub-style verifier (whole-header compare) accepts the new secret on x-svc-signature and the old one on x-svc-signature-previous", async () => {
    expect(await githubStyleVerify(current, body, headers["x-svc-signature"]!)).toBe(true);
    expect(await githubStyleVerify(previous, body, headers["x-svc-signature-previous"]!)).toBe(true);
    // Each header belongs to one secret only.
    expect(await githubStyleVerify(previous, body, headers["x-svc-signature"]!)).toBe(false);
    expect(await githubStyleVerify(current, body, headers["x-svc-signature-previous"]!)).toBe(false);
    // The old comma-separated form is what such verifiers refuse: the reason for the separate header.
    expect(await githubStyleVerify(current, body, `${headers["x-svc-signature"]}, ${headers["x-svc-signature-previous"]}`)).toBe(false);
  });

  it("each secret alone verifies, with standardwebhooks, matchSvcSignature and the dashboard's snippet", () => {
    const snippet = dashboardSnippet();
    for (const [secret, header] of [
      [current, "x-svc-signature"],
      [previous, "x-svc-signature-previous"],
    ] as const) {
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
      expect(verifyStandardWebhook(secret, headers, body, { now: new Date() })).toBe(true);
      expect(verifySvcSignature(secret, body, headers[header])).toBe(true);
      expect(matchSvcSignature(secret, headers, body)).toBe(header);
      expect(matchSvcSignature(secret, new Headers(headers), Buffer.from(body, "utf8"))).toBe(header);
      expect(snippet(body, headers, secret)).toBe(true);
    }
  });

  it("a third secret verifies with neither", async () => {
    const stranger = generateWebhookSecret();
    expect(() => new Webhook(stranger).verify(body, headers)).toThrow(/No matching signature/);
    expect(verifyStandardWebhook(stranger, headers, body, { now: new Date() })).toBe(false);
    expect(verifySvcSignature(stranger, body, headers["x-svc-signature"])).toBe(false);
    expect(verifySvcSignature(stranger, body, headers["x-svc-signature-previous"])).toBe(false);
    expect(matchSvcSignature(stranger, headers, body)).toBeNull();
    expect(dashboardSnippet()(body, headers, stranger)).toBe(false);
    expect(await githubStyleVerify(stranger, body, headers["x-svc-signature"]!)).toBe(false);
  });

  it("a duplicated secret signs once, with no previous header", () => {
    const { headers: once } = delivery([current, current]);
    expect(once["x-svc-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(once).not.toHaveProperty("x-svc-signature-previous");
    expect(once["webhook-signature"]!.split(" ")).toHaveLength(1);
  });

  it("without a rotation there is no previous header; more than two secrets is refused", () => {
    expect(delivery([current]).headers).not.toHaveProperty("x-svc-signature-previous");
    expect(() => delivery([current, previous, generateWebhookSecret()])).toThrow(/at most one previous/);
  });
});

/** components/overview/verify-snippet.ts as a receiver would paste it (its import line becomes a parameter). */
function dashboardSnippet(): (rawBody: string, headers: Record<string, string>, secret: string) => boolean {
  const source = VERIFY_SNIPPET.replace(/^import crypto from "node:crypto";$/m, "");
  expect(source).not.toBe(VERIFY_SNIPPET);
  return new Function("crypto", `${source}\nreturn isFromSvc;`)(crypto);
}

describe("verification failures", () => {
  const secret = generateWebhookSecret();

  it("a tampered body fails every check", () => {
    const { body, headers } = delivery([secret]);
    const tampered = body.replace("order #4821", "order #4822");
    expect(tampered).not.toBe(body);
    expect(() => new Webhook(secret).verify(tampered, headers)).toThrow(/No matching signature/);
    expect(verifyStandardWebhook(secret, headers, tampered, { now: new Date() })).toBe(false);
    expect(verifySvcSignature(secret, tampered, headers["x-svc-signature"])).toBe(false);
    // Re-serialising the parsed body is not the raw body either (whitespace added).
    expect(verifySvcSignature(secret, JSON.stringify(JSON.parse(body), null, 1), headers["x-svc-signature"])).toBe(false);
  });

  it("a tampered webhook-id or timestamp fails the Standard Webhooks signature", () => {
    const { body, headers } = delivery([secret]);
    const otherId = { ...headers, "webhook-id": "evt_01kvd1nwz0aaaaaaaaaaaaaaaaaa" };
    const otherTs = { ...headers, "webhook-timestamp": String(Number(headers["webhook-timestamp"]) - 1) };
    for (const h of [otherId, otherTs]) {
      expect(() => new Webhook(secret).verify(body, h)).toThrow(/No matching signature/);
      expect(verifyStandardWebhook(secret, h, body, { now: new Date() })).toBe(false);
    }
  });

  it("a stale (or far future) timestamp fails even with a correct signature", () => {
    const stale = delivery([secret], new Date(Date.now() - 10 * 60_000));
    expect(() => new Webhook(secret).verify(stale.body, stale.headers)).toThrow(/too old/);
    expect(verifyStandardWebhook(secret, stale.headers, stale.body, { now: new Date() })).toBe(false);
    expect(verifyStandardWebhook(secret, stale.headers, stale.body, { toleranceSeconds: 3600, now: new Date() })).toBe(true);
    const signedAt = new Date(stale.unix * 1000);
    expect(verifyStandardWebhook(secret, stale.headers, stale.body, { now: new Date(signedAt.getTime() + 299_000) })).toBe(true);
    expect(verifyStandardWebhook(secret, stale.headers, stale.body, { now: new Date(signedAt.getTime() + 301_000) })).toBe(false);
    expect(verifyStandardWebhook(secret, stale.headers, stale.body, { now: new Date(signedAt.getTime() - 301_000) })).toBe(false);
    const future = delivery([secret], new Date(Date.now() + 10 * 60_000));
    expect(() => new Webhook(secret).verify(future.body, future.headers)).toThrow(/too new/);
    expect(verifyStandardWebhook(secret, future.headers, future.body, { now: new Date() })).toBe(false);
  });

  it("missing or malformed headers fail; header names are case-insensitive; fetch Headers work", () => {
    const { body, headers } = delivery([secret]);
    const { "webhook-signature": _dropped, ...unsigned } = headers;
    expect(verifyStandardWebhook(secret, unsigned, body, { now: new Date() })).toBe(false);
    expect(verifyStandardWebhook(secret, { ...headers, "webhook-timestamp": "soon" }, body, { now: new Date() })).toBe(false);
    expect(
      verifyStandardWebhook(secret, { ...headers, "webhook-signature": headers["webhook-signature"]!.replace("v1,", "v2,") }, body, { now: new Date() }),
    ).toBe(false);
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyStandardWebhook(secret, upper, body, { now: new Date() })).toBe(true);
    expect(verifyStandardWebhook(secret, new Headers(headers), body, { now: new Date() })).toBe(true);
    expect(verifyStandardWebhook("whsec_short", headers, body, { now: new Date() })).toBe(false);
  });

  it("x-svc-signature: missing, empty, bare hex, wrong algorithm or a list fail; upper-case hex and extra spaces pass", () => {
    const { body, headers } = delivery([secret]);
    const hex = headers["x-svc-signature"]!.slice("sha256=".length);
    expect(verifySvcSignature(secret, body, undefined)).toBe(false);
    expect(verifySvcSignature(secret, body, "")).toBe(false);
    expect(verifySvcSignature(secret, body, hex)).toBe(false);
    expect(verifySvcSignature(secret, body, `sha1=${hex}`)).toBe(false);
    expect(verifySvcSignature("", body, headers["x-svc-signature"])).toBe(false);
    expect(verifySvcSignature(secret, body, `sha256=${hex.toUpperCase()}`)).toBe(true);
    expect(verifySvcSignature(secret, body, `  sha256=${hex} `)).toBe(true);
    // One value per header (docs/spec/decisions.md): a comma-separated list is not a valid header value.
    expect(verifySvcSignature(secret, body, `sha256=${"0".repeat(64)}, sha256=${hex}`)).toBe(false);
    expect(verifySvcSignature(secret, body, `sha256=${hex}, sha256=${hex}`)).toBe(false);
  });
});

describe("samples", () => {
  it("cover every event type of the spec, and message.received carries every field of its table", () => {
    expect([...SAMPLE_EVENT_TYPES].sort()).toEqual([
      "call.event",
      "contact.identity.updated",
      "flow.completed",
      "flow.status",
      "message.received",
      "message.status",
      "participant.joined",
      "template.status",
    ]);
    const received = samplePayload("message.received");
    for (const field of [
      "agent_id",
      "organization_id",
      "channel_id",
      "conversation_id",
      "contact_id",
      "from",
      "user_id",
      "parent_user_id",
      "username",
      "text",
      "message_id",
      "type",
      "ai_handoff",
      "messages",
      "assets",
      "media",
      "location",
      "contact_reference",
      "customer_reference",
      "metadata",
    ]) {
      expect(received, field).toHaveProperty(field);
    }
    const [item] = received.messages as Record<string, unknown>[];
    for (const field of ["id", "type", "text", "received_at", "media", "location", "interactive", "replied_to"]) expect(item, field).toHaveProperty(field);
    expect(received.ai_handoff).toEqual({ status: "AI_ACTIVE", reason: null, handoff_at: null, is_on_hold: false });
    expect(samplePayload("message.status")).toMatchObject({ status: "delivered", recipient_user_id: expect.any(String), recipient_id: expect.any(String) });
    expect(samplePayload("call.event")).toMatchObject({ kind: "call", call: expect.any(Object) });
    expect(samplePayload("flow.completed")).toMatchObject({
      flow_token: expect.any(String),
      submission: expect.any(Object),
      contact_reference: expect.any(String),
    });
  });

  it("hands out a fresh copy each time", () => {
    const a = samplePayload("participant.joined");
    a.phone = "changed";
    expect(samplePayload("participant.joined").phone).not.toBe("changed");
  });
});
