import { expect } from "vitest";
import { randomBytes } from "node:crypto";
import type { CallResult } from "./app";

export const API_VERSION = "2026-06-18";

/** Every field of the Project wire object (docs/spec/service-spec.md: Project), without webhook_secret (list form). */
export const PROJECT_LIST_FIELDS = [
  "object",
  "id",
  "project_id",
  "name",
  "description",
  "routing_mode",
  "join_code",
  "require_opt_in",
  "webhook_url",
  "webhook_signing_enabled",
  "channel_id",
  "enrollment_channel",
  "publish_readiness",
  "participant_count",
  "flow_count",
  "created_at",
  "updated_at",
].sort();

/** Single GET, create, update: the list fields plus webhook_secret. */
export const PROJECT_FIELDS = [...PROJECT_LIST_FIELDS, "webhook_secret"].sort();

export const REQUEST_ID = /^req_[0-9a-z]{26}$/;
export const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{32}$/;

/** Headers every real handler response carries (docs/spec/decisions.md "Headers on every handler response"). */
export function expectHandlerHeaders(res: CallResult): void {
  expect(res.headers.get("svc-version")).toBe(API_VERSION);
  expect(res.headers.get("request-id")).toMatch(REQUEST_ID);
}

/** RateLimit-* headers, present on every keyed (authenticated) response. */
export function expectRateLimitHeaders(res: CallResult): void {
  expect(res.headers.get("ratelimit-limit")).toMatch(/^\d+$/);
  expect(res.headers.get("ratelimit-remaining")).toMatch(/^\d+$/);
  expect(res.headers.get("ratelimit-reset")).toMatch(/^\d+$/);
}

/** The error envelope: `{error, message, ...}` with the given code and status. */
export function expectError(res: CallResult, status: number, code: string): void {
  expect({ status: res.status, error: res.body?.error }).toEqual({ status, error: code });
  expect(typeof res.body.message).toBe("string");
  expect(res.body.message.length).toBeGreaterThan(0);
}

/** A valid custom webhook secret: `whsec_` + base64 of `bytes` random bytes. */
export function customWebhookSecret(bytes = 32): string {
  return `whsec_${randomBytes(bytes).toString("base64")}`;
}

/** A value with the shape of a secret key that no database holds. */
export function unknownSecretKey(): string {
  return `svc_live_${"A".repeat(16)}${randomBytes(8).toString("hex").slice(0, 16)}`;
}
