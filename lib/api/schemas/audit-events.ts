import { z } from "@/lib/api/zod";
import { PageQuery, Timestamp } from "@/lib/api/schemas/common";
import { AUDIT_ACTION_TARGETS, AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from "@/lib/shared/audit-actions";

/** Audit events on the wire: docs/spec/decisions.md "Developer tools"; the actions: docs/api-decisions.md "Audit log". */

const Action = z.enum(AUDIT_ACTIONS).openapi("AuditAction", {
  description:
    "What was done. Each action is recorded against one target type: " +
    Object.entries(AUDIT_ACTION_TARGETS)
      .map(([action, target]) => `${action} (${target})`)
      .join(", ") +
    ". New actions may be added; names never change.",
});

const TargetType = z.enum(AUDIT_TARGET_TYPES).openapi("AuditTargetType", {
  description: "What kind of thing the action was done to; target.id carries that kind's id prefix (key_, ch_, fn_, ...).",
});

export const AuditEvent = z
  .object({
    object: z.literal("audit_event"),
    id: z.string(),
    actor: z
      .object({
        type: z.enum(["api_key", "user", "system"]).openapi({
          description: "api_key: a call with a key; user: an operator in the dashboard; system: svc itself (the admin CLI).",
        }),
        id: z.string().nullable().openapi({ description: "The key's or operator's id; null for system." }),
        display: z.string().openapi({ description: "How the actor read at the time: a key's name and display (never its value), an operator's email." }),
      })
      .openapi({ description: "Who did it." }),
    action: Action,
    target: z
      .object({
        type: TargetType,
        id: z.string().nullable(),
      })
      .openapi({ description: "What it was done to." }),
    details: z.record(z.string(), z.unknown()).openapi({
      description:
        "Facts about the action, a fixed set per action (a key's scopes, a version number, a secret's name, a routing mode before and after). Never a secret, a key's value or credentials.",
    }),
    ip: z.string().nullable().openapi({
      description:
        "The caller's address (the socket's, or from X-Forwarded-For / X-Real-IP when the socket is a proxy named in SVC_TRUSTED_PROXIES); null when unknown.",
    }),
    created_at: Timestamp,
  })
  .openapi("AuditEvent");

export const AuditEventListQuery = PageQuery.extend({
  action: Action.optional(),
  actor_id: z.string().min(1).max(200).optional().openapi({ description: "Only this key's or operator's entries." }),
  target_type: TargetType.optional().openapi({ description: "Only entries about this kind of target." }),
});

export type AuditEventWire = z.infer<typeof AuditEvent>;
