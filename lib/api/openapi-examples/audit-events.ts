import type { Example, OperationExamples } from "./types";
import { AT, KEY_ID, LATER, PROJECT_ID, list } from "./fixtures";

/**
 * Examples of the audit log: an operator creating a key and rotating a function secret in the
 * dashboard, a CI key deploying a function and applying config. Shapes as lib/domain/audit/read.ts serializes them.
 */

const OPERATOR_ID = "usr_01jxq4m7s1z9x7v5t3r1p9n7l5";
const CI_KEY_ID = "key_01jxq4r9a2c4e6g8j0l2n4q6s8";
const FUNCTION_ID = "fn_01jxq4r8z1b3d5f7h9k1m3p5r7";

const KEY_CREATED = {
  object: "audit_event",
  id: "aud_01jxq4s1b3d5f7h9k1m3p5r7t9",
  actor: { type: "user", id: OPERATOR_ID, display: "dana@acme.example" },
  action: "api_key.created",
  target: { type: "api_key", id: KEY_ID },
  details: { name: "Notifier", kind: "secret", display: "svc_live_4fQ9…Wc7Y", scopes: ["limits:read", "messages:send"] },
  ip: "203.0.113.24",
  created_at: AT,
};

const FUNCTION_DEPLOYED = {
  object: "audit_event",
  id: "aud_01jxq4s2c4e6g8j0l2n4q6s8u0",
  actor: { type: "api_key", id: CI_KEY_ID, display: "CI (svc_live_Hn5T…b6Rx)" },
  action: "function.deployed",
  target: { type: "function", id: FUNCTION_ID },
  details: { slug: "order-status", version_id: "ver_01jxq4s2c3d5f7h9k1m3p5r7t9", version_number: 4, runtime: "PLAIN", bytes: 1832 },
  ip: "198.51.100.7",
  created_at: LATER,
};

const CONFIG_APPLIED = {
  object: "audit_event",
  id: "aud_01jxq4s3d5f7h9k1m3p5r7t9v1",
  actor: { type: "api_key", id: CI_KEY_ID, display: "CI (svc_live_Hn5T…b6Rx)" },
  action: "config.applied",
  target: { type: "project", id: PROJECT_ID },
  details: { created: 1, updated: 2, deleted: 0, unchanged: 5 },
  ip: "198.51.100.7",
  created_at: "2026-06-18T09:43:02.000Z",
};

const SECRET_SET = {
  object: "audit_event",
  id: "aud_01jxq4s4e6g8j0l2n4q6s8u0w2",
  actor: { type: "user", id: OPERATOR_ID, display: "dana@acme.example" },
  action: "function.secret_set",
  target: { type: "function", id: FUNCTION_ID },
  // By name only: the value never reaches the log. created false: an existing secret was rotated.
  details: { slug: "order-status", name: "STRIPE_KEY", created: false },
  ip: "203.0.113.24",
  created_at: "2026-06-18T09:44:10.000Z",
};

const notFound: Record<string, Example> = {
  notFound: {
    summary: "No such event in this project, or older than 90 days (another project's id answers the same)",
    value: { error: "not_found", message: "No audit event with id 'aud_01jxq4zzzzzzzzzzzzzzzzzzzz'." },
  },
};

export const auditEventExamples: Record<string, OperationExamples> = {
  listAuditEvents: {
    response: {
      page: { summary: "Newest first", value: list([SECRET_SET, CONFIG_APPLIED, FUNCTION_DEPLOYED, KEY_CREATED]) },
      filtered: { summary: "?action=api_key.created", value: list([KEY_CREATED]) },
      byTarget: { summary: "?target_type=function", value: list([SECRET_SET, FUNCTION_DEPLOYED]) },
    },
  },
  getAuditEvent: {
    response: { keyCreated: { summary: "An operator created a key in the dashboard", value: KEY_CREATED } },
    errors: { 404: notFound },
  },
};
