import type { flowDispatches, flowSubmissions, flows } from "@/lib/db/schema";

export type FlowRow = typeof flows.$inferSelect;
export type FlowDispatchRow = typeof flowDispatches.$inferSelect;
export type FlowSubmissionRow = typeof flowSubmissions.$inferSelect;

/** What a single GET may add to the Flow (`include=flow_json,draft`). */
export interface FlowIncludes {
  flowJson?: boolean;
  draft?: boolean;
}

/**
 * The spec's Flow. `agent_id` is the project id (docs/spec/decisions.md "Flows"). has_unpublished_changes:
 * the flow was saved after the version customers open was cut (they keep opening that version).
 */
export function serializeFlow(row: FlowRow, include: FlowIncludes = {}) {
  return {
    object: "flow" as const,
    id: row.id,
    config_key: row.configKey,
    locale: row.locale,
    name: row.name,
    description: row.description,
    status: row.status,
    meta_status: row.metaStatus as MetaStatus | null,
    meta_status_reason: row.metaStatusReason,
    validation_errors: (row.validationErrors ?? null) as Array<Record<string, unknown> & { code: string | number; message: string }> | null,
    runtime_mode: row.runtimeMode,
    data_exchange_url: row.dataExchangeUrl,
    field_schema: row.fieldSchema ?? null,
    ...(include.flowJson ? { flow_json: row.flowJson ?? null } : {}),
    ...(include.draft ? { draft: (row.draft ?? null) as never } : {}),
    published_version: row.publishedVersion,
    has_unpublished_changes: row.publishedRevision !== null && row.publishedRevision !== row.revision,
    meta_flow_id: row.metaFlowId,
    meta_waba_id: row.metaWabaId,
    agent_id: row.projectId,
    last_synced_at: row.lastSyncedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Flow.meta_status (docs/spec/service-spec.md): the provider's statuses plus our PUBLISHING / PUBLISH_FAILED. */
type MetaStatus = "DRAFT" | "PUBLISHED" | "DEPRECATED" | "BLOCKED" | "THROTTLED" | "PUBLISHING" | "PUBLISH_FAILED";

export function serializeDispatch(row: FlowDispatchRow) {
  return {
    object: "flow_dispatch" as const,
    id: row.id,
    flow_token: row.flowToken,
    flow_id: row.flowId,
    agent_id: row.projectId,
    channel_id: row.channelId,
    conversation_id: row.conversationId,
    contact_id: row.contactId,
    to: row.to,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    expires_at: row.expiresAt.toISOString(),
  };
}

export function serializeSubmission(row: FlowSubmissionRow) {
  return {
    object: "flow_submission" as const,
    id: row.id,
    flow_token: row.flowToken,
    agent_id: row.projectId,
    flow_id: row.flowId,
    conversation_id: row.conversationId,
    contact_id: row.contactId,
    from: row.from,
    status: row.status,
    submission: row.submission,
    errors: (row.errors ?? null) as Array<{ field: string; code: string; message: string }> | null,
    created_at: row.createdAt.toISOString(),
  };
}
