import { and, eq } from "drizzle-orm";
import { channels, templates } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import { emitEvent } from "@/lib/domain/events";
import type { TemplateRow, TemplateStatus } from "./serialize";
import { templateStatusMoved } from "./status-moved";

/** The provider's `message_template_status_update` change, as ingest normalises it. */
export interface TemplateStatusChange {
  /** entry.id of the webhook: the business account the template lives in. */
  businessAccountId: string;
  metaTemplateId: string;
  /** The provider's event: APPROVED, REJECTED, PAUSED, DISABLED, PENDING, REINSTATED, FLAGGED, ... */
  event: string;
  /** The provider's reason (REJECTED: INVALID_FORMAT, ...), null when it gave none. */
  reason: string | null;
}

/** template.status (docs/spec/decisions.md "Templates"). */
interface TemplateStatusPayload {
  template_id: string;
  meta_template_id: string | null;
  channel_id: string;
  name: string;
  language: string;
  old_status: TemplateStatus;
  new_status: TemplateStatus;
  reason: string | null;
  occurred_at: string;
}

export type TemplateStatusOutcome = "changed" | "unchanged" | "unknown_template" | "ignored_event";

/**
 * The status a provider event moves a template to. REINSTATED ends a pause (the template is usable
 * again); quality and housekeeping events (FLAGGED, IN_APPEAL, PENDING_DELETION, DELETED, ...) are
 * not statuses of the contract and change nothing.
 */
function statusOfEvent(event: string): TemplateStatus | null {
  switch (event.toUpperCase()) {
    case "APPROVED":
    case "REINSTATED":
      return "APPROVED";
    case "REJECTED":
      return "REJECTED";
    case "PAUSED":
      return "PAUSED";
    case "DISABLED":
      return "DISABLED";
    case "PENDING":
      return "PENDING";
    default:
      return null;
  }
}

/**
 * A review result from the provider's webhook: status moves, approved_at / rejected_at (with
 * rejection_reason) are stamped, and template.status is emitted in the same transaction. A
 * provider retry of a result already applied changes nothing; concurrent deliveries race on the
 * old status and one wins. Templates this service did not submit (made in the provider's own
 * tools) are not ours to track: the outcome says so and nothing is written.
 */
export async function applyTemplateStatusChange(ctx: SystemCtx, change: TemplateStatusChange): Promise<TemplateStatusOutcome> {
  const newStatus = statusOfEvent(change.event);
  if (!newStatus) return "ignored_event";
  const [found] = await ctx.db
    .select({ template: templates })
    .from(templates)
    .innerJoin(channels, eq(channels.id, templates.channelId))
    .where(and(eq(templates.metaTemplateId, change.metaTemplateId), eq(channels.businessAccountId, change.businessAccountId)));
  if (!found) return "unknown_template";
  const row = found.template;
  if (row.status === newStatus) return "unchanged";
  const reason = newStatus === "APPROVED" || newStatus === "PENDING" ? null : change.reason;
  return ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(templates)
      .set({
        status: newStatus,
        ...(newStatus === "APPROVED" ? { approvedAt: ctx.now, rejectionReason: null } : {}),
        ...(newStatus === "REJECTED" ? { rejectedAt: ctx.now, rejectionReason: reason } : {}),
        lastSyncedAt: ctx.now,
        updatedAt: ctx.now,
      })
      .where(and(eq(templates.id, row.id), eq(templates.status, row.status)))
      .returning({ id: templates.id });
    if (!updated) return "unchanged";
    await templateStatusMoved.run({ ...ctx, db: tx }, { projectId: row.projectId, templateId: row.id, from: row.status, to: newStatus });
    await emitEvent(
      { ...ctx, db: tx },
      { project: { id: row.projectId }, type: "template.status", payload: { ...payload(row, newStatus, reason, ctx.now) }, at: ctx.now },
    );
    return "changed";
  });
}

function payload(row: TemplateRow, newStatus: TemplateStatus, reason: string | null, now: Date): TemplateStatusPayload {
  return {
    template_id: row.id,
    meta_template_id: row.metaTemplateId,
    channel_id: row.channelId,
    name: row.name,
    language: row.language,
    old_status: row.status,
    new_status: newStatus,
    reason,
    occurred_at: now.toISOString(),
  };
}
