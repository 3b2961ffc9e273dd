import type { templates } from "@/lib/db/schema";

export type TemplateRow = typeof templates.$inferSelect;
export type TemplateStatus = TemplateRow["status"];

/** The spec's Template, exactly its fields (docs/spec/service-spec.md "Template"); components as the caller sent them. */
export function serializeTemplate(row: TemplateRow) {
  return {
    object: "whatsapp_template" as const,
    id: row.id,
    channel_id: row.channelId,
    meta_template_id: row.metaTemplateId,
    name: row.name,
    language: row.language,
    category: row.category,
    status: row.status,
    rejection_reason: row.rejectionReason,
    components: row.components,
    submitted_at: row.submittedAt.toISOString(),
    approved_at: row.approvedAt?.toISOString() ?? null,
    rejected_at: row.rejectedAt?.toISOString() ?? null,
    last_synced_at: row.lastSyncedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
