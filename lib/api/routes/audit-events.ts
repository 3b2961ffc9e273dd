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
      "Needs `projects:read`. Who created or revoked a key, applied config, deployed or rolled back a function, or rotated the webhook secret: " +
      "each entry is written in the same transaction as its action. Kept 90 days. Filter by action or actor_id.",
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
