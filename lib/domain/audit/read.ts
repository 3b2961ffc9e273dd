import { and, eq, gte, type SQL } from "drizzle-orm";
import { auditEvents } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { notFound } from "@/lib/errors";
import type { AuditAction, AuditTargetType } from "@/lib/shared/audit-actions";
import { AUDIT_RETENTION_MS } from "./retention";

type AuditEventRow = typeof auditEvents.$inferSelect;

function serializeAuditEvent(row: AuditEventRow) {
  return {
    object: "audit_event" as const,
    id: row.id,
    actor: { type: row.actorType, id: row.actorId, display: row.actorDisplay },
    // Written only by recordAudit, which parses every entry against the union (actions.ts); names are never retired.
    action: row.action as AuditAction,
    target: { type: row.targetType as AuditTargetType, id: row.targetId },
    details: row.details ?? {},
    ip: row.ip,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * Entries past the 90 days are never answered, whether or not the daily cleanup (retention.ts) has
 * deleted them yet: what the log promises does not depend on when a job last ran.
 */
function retained(ctx: Ctx): SQL {
  return and(eq(auditEvents.projectId, ctx.project.id), gte(auditEvents.createdAt, new Date(ctx.now.getTime() - AUDIT_RETENTION_MS)))!;
}

export interface AuditEventFilters {
  action?: AuditAction | undefined;
  actor_id?: string | undefined;
  target_type?: AuditTargetType | undefined;
}

/** GET /audit-events: the project's entries of the last 90 days, newest first. */
export async function listAuditEvents(ctx: Ctx, params: PageParams & AuditEventFilters) {
  const filters: SQL[] = [retained(ctx)];
  if (params.action) filters.push(eq(auditEvents.action, params.action));
  if (params.actor_id) filters.push(eq(auditEvents.actorId, params.actor_id));
  if (params.target_type) filters.push(eq(auditEvents.targetType, params.target_type));
  // The cursor is any entry of the project's log (retained or not yet deleted), so a page boundary that
  // ages past 90 days while someone reads still pages on.
  const page = await paginate(ctx.db, auditEvents, eq(auditEvents.projectId, ctx.project.id), params, and(...filters));
  return { object: "list" as const, data: page.data.map(serializeAuditEvent), has_more: page.has_more };
}

export async function getAuditEvent(ctx: Ctx, id: string) {
  const [row] = await ctx.db
    .select()
    .from(auditEvents)
    .where(and(retained(ctx), eq(auditEvents.id, id)));
  if (!row) throw notFound("audit event", id);
  return serializeAuditEvent(row);
}
