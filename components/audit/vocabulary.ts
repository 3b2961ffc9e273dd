import type { BadgeTone } from "@/components/ui";
import type { AuditActorType } from "@/lib/client/audit";
import { AUDIT_TARGET_TYPES, isAuditAction, isAuditTargetType, type AuditAction, type AuditTargetType } from "@/lib/shared/audit-actions";

export { AUDIT_TARGET_TYPES, isAuditAction, isAuditTargetType };

/** How the audit log says things. Records over the unions, so a new action or target type cannot ship without words. */
export const ACTION_LABELS: Record<AuditAction, string> = {
  "api_key.created": "Created API key",
  "api_key.revoked": "Revoked API key",
  "member.invited": "Invited a member",
  "invitation.revoked": "Revoked an invitation",
  "member.role_changed": "Changed a member's role",
  "member.removed": "Removed a member",
  "project.webhook_url_changed": "Changed the webhook URL",
  "project.webhook_secret_rotated": "Rotated webhook secret",
  "project.routing_changed": "Changed project routing",
  "automation.created": "Created automation",
  "automation.updated": "Changed automation",
  "automation.deleted": "Deleted automation",
  "config.applied": "Applied config",
  "channel.connected": "Connected a channel",
  "channel.disconnected": "Disconnected a channel",
  "channel.routing_changed": "Changed channel routing",
  "function.deployed": "Deployed function",
  "function.rolled_back": "Rolled back function",
  "function.secret_set": "Set a function secret",
  "function.secret_deleted": "Deleted a function secret",
  "business_agent.enabled": "Turned an agent on",
  "business_agent.disabled": "Turned an agent off",
  "connector.created": "Added a connector",
  "connector.updated": "Changed a connector",
  "connector.deleted": "Deleted a connector",
  "thread.taken_over": "Took over a thread",
  "thread.passed": "Passed a thread on",
  "flow.published": "Published a flow",
  "template.submitted": "Submitted a template",
  "template.deleted": "Deleted a template",
  "broadcast.sent": "Sent a broadcast",
  "broadcast.paused": "Paused a broadcast",
  "broadcast.cancelled": "Cancelled a broadcast",
  "contact.erased": "Erased a contact's data",
  "conversation.assigned": "Assigned a conversation",
  "conversation.note_added": "Added a note",
};

/** The action filter's groups, by what the actions touch. Every action is in exactly one (tests/dashboard/audit-log.test.ts). */
export const ACTION_GROUPS: readonly { label: string; actions: readonly AuditAction[] }[] = [
  {
    label: "Access",
    actions: ["api_key.created", "api_key.revoked", "member.invited", "invitation.revoked", "member.role_changed", "member.removed"],
  },
  {
    label: "Webhook, config and automations",
    actions: [
      "project.webhook_url_changed",
      "project.webhook_secret_rotated",
      "project.routing_changed",
      "config.applied",
      "automation.created",
      "automation.updated",
      "automation.deleted",
    ],
  },
  { label: "Channels and threads", actions: ["channel.connected", "channel.disconnected", "channel.routing_changed", "thread.taken_over", "thread.passed"] },
  { label: "Functions", actions: ["function.deployed", "function.rolled_back", "function.secret_set", "function.secret_deleted"] },
  {
    label: "Business agents",
    actions: ["business_agent.enabled", "business_agent.disabled", "connector.created", "connector.updated", "connector.deleted"],
  },
  {
    label: "Sending",
    actions: ["flow.published", "template.submitted", "template.deleted", "broadcast.sent", "broadcast.paused", "broadcast.cancelled"],
  },
  { label: "Customer data", actions: ["contact.erased"] },
  { label: "Inbox", actions: ["conversation.assigned", "conversation.note_added"] },
];

export function actionLabel(action: AuditAction): string {
  // The API may add actions before this page learns their words (its schema says so): show the code then.
  return ACTION_LABELS[action] ?? action;
}

export const TARGET_LABELS: Record<AuditTargetType, string> = {
  project: "Project",
  api_key: "API key",
  invitation: "Invitation",
  membership: "Member",
  function: "Function",
  channel: "Channel",
  contact: "Contact",
  flow: "Flow",
  template: "Template",
  broadcast: "Broadcast",
  business_agent: "Business agent",
  business_agent_connector: "Connector",
  thread_control: "Customer thread",
  automation: "Automation",
  conversation: "Conversation",
};

export function targetLabel(type: string): string {
  return isAuditTargetType(type) ? TARGET_LABELS[type] : type.replaceAll("_", " ");
}

export const ACTOR_TYPES: Record<AuditActorType, { label: string; tone: BadgeTone }> = {
  user: { label: "Operator", tone: "accent" },
  api_key: { label: "API key", tone: "neutral" },
  system: { label: "System", tone: "info" },
};
