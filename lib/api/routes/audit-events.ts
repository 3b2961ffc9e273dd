import { defineRoute } from "@/lib/api/route";
import { IdParam, listOf } from "@/lib/api/schemas/common";
import { AuditEvent, AuditEventListQuery } from "@/lib/api/schemas/audit-events";
import { getAuditEvent, listAuditEvents } from "@/lib/domain/audit/read";

const tag = "Audit log";

export const auditEventRoutes = [
  defineRoute({
    method: "GET",
    path: "/audit-events",
    operationId: "listAuditEvents",
    summary: "List the project's audit events, newest first",
    description:
      "Needs `projects:read`. Every sensitive write: keys and members, the webhook and its secret, routing, channels, function deploys and secrets, " +
      "agents and their connectors, thread take-overs, flow publishes, templates, broadcasts, contact erasure (AuditAction lists each with its target type). " +
      "Each entry is written in the same transaction as its action, with facts about it and never a secret. Kept 90 days. Filter by action, target_type or actor_id.",
    tag,
    scope: "projects:read",
    query: AuditEventListQuery,
    response: listOf(AuditEvent, "AuditEventList"),
    handler: ({ ctx, query }) => listAuditEvents(ctx, query),
  }),
  defineRoute({
    method: "GET",
    path: "/audit-events/{id}",
    operationId: "getAuditEvent",
    summary: "Retrieve an audit event",
    description: "Needs `projects:read`. Another project's event, or one older than 90 days, is 404.",
    tag,
    scope: "projects:read",
    params: IdParam,
    response: AuditEvent,
    handler: ({ ctx, params }) => getAuditEvent(ctx, params.id),
  }),
];
