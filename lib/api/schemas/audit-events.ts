import { z } from "@/lib/api/zod";
import { PageQuery, Timestamp } from "@/lib/api/schemas/common";
import { AUDIT_ACTIONS } from "@/lib/domain/audit/record";

/** Audit events on the wire: docs/spec/decisions.md "Developer tools". */

const Action = z.enum(AUDIT_ACTIONS).openapi("AuditAction", {
  description:
    "What was done: api_key.created, api_key.revoked, config.applied, function.deployed, function.rolled_back, project.webhook_secret_rotated. New actions may be added.",
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
        type: z.string().openapi({ description: "api_key, project or function." }),
        id: z.string().nullable(),
      })
      .openapi({ description: "What it was done to." }),
    details: z.record(z.string(), z.unknown()).openapi({
      description: "Facts about the action (a key's scopes, a version number, what an apply changed). Never a secret or a key's value.",
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
});

export type AuditEventWire = z.infer<typeof AuditEvent>;
