import type { IdKind } from "@/lib/ids";

/**
 * The audit log's vocabulary (docs/api-decisions.md "Audit log"): what can be recorded and what each
 * action is done to. Pure data, so the API's enum, the domain's parsed union
 * (lib/domain/audit/actions.ts) and the dashboard's filter read the same list. An action's name is
 * its wire name forever: rows already written keep reading.
 */

/** A target's type on the wire → the id registry's kind (lib/ids.ts), whose prefix its id carries. */
export const AUDIT_TARGET_KINDS = {
  project: "project",
  api_key: "apiKey",
  invitation: "invitation",
  membership: "membership",
  function: "function",
  channel: "channel",
  contact: "contact",
  flow: "flow",
  template: "template",
  broadcast: "broadcast",
  business_agent: "businessAgent",
  business_agent_connector: "businessAgentConnector",
  thread_control: "threadControl",
  automation: "automation",
  conversation: "conversation",
} as const satisfies Record<string, IdKind>;

export type AuditTargetType = keyof typeof AUDIT_TARGET_KINDS;
export const AUDIT_TARGET_TYPES = Object.keys(AUDIT_TARGET_KINDS) as [AuditTargetType, ...AuditTargetType[]];

/** Every action and the one target type it is recorded against. */
export const AUDIT_ACTION_TARGETS = {
  "api_key.created": "api_key",
  "api_key.revoked": "api_key",
  "member.invited": "invitation",
  "invitation.revoked": "invitation",
  "member.role_changed": "membership",
  "member.removed": "membership",
  "project.webhook_url_changed": "project",
  "project.webhook_secret_rotated": "project",
  "project.routing_changed": "project",
  "config.applied": "project",
  "automation.created": "automation",
  "automation.updated": "automation",
  "automation.deleted": "automation",
  "channel.connected": "channel",
  "channel.disconnected": "channel",
  "channel.routing_changed": "channel",
  "function.deployed": "function",
  "function.rolled_back": "function",
  "function.secret_set": "function",
  "function.secret_deleted": "function",
  "business_agent.enabled": "business_agent",
  "business_agent.disabled": "business_agent",
  "connector.created": "business_agent_connector",
  "connector.updated": "business_agent_connector",
  "connector.deleted": "business_agent_connector",
  "thread.taken_over": "thread_control",
  "thread.passed": "thread_control",
  "flow.published": "flow",
  "template.submitted": "template",
  "template.deleted": "template",
  "broadcast.sent": "broadcast",
  "broadcast.paused": "broadcast",
  "broadcast.cancelled": "broadcast",
  "contact.erased": "contact",
  "conversation.assigned": "conversation",
  "conversation.note_added": "conversation",
} as const satisfies Record<string, AuditTargetType>;

export type AuditAction = keyof typeof AUDIT_ACTION_TARGETS;
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_TARGETS) as [AuditAction, ...AuditAction[]];

export function isAuditAction(value: string): value is AuditAction {
  return Object.hasOwn(AUDIT_ACTION_TARGETS, value);
}

export function isAuditTargetType(value: string): value is AuditTargetType {
  return Object.hasOwn(AUDIT_TARGET_KINDS, value);
}
