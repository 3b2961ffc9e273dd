import type { businessAgents } from "@/lib/db/schema";

export type AgentRow = typeof businessAgents.$inferSelect;

/** The wire BusinessAgent (docs/spec/service-spec.md "Business agent family"). */
export function serializeAgent(row: AgentRow) {
  return {
    object: "business_agent" as const,
    id: row.id,
    project_id: row.projectId,
    channel_id: row.channelId,
    meta_agent_id: row.metaAgentId,
    status: row.status,
    settings: row.settings ?? null,
    eligibility: row.eligibility ?? null,
    error_message: row.errorMessage,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** GET/PUT /business-agents/{id}/settings. */
export function serializeSettings(row: AgentRow) {
  return { object: "business_agent_settings" as const, business_agent_id: row.id, settings: row.settings ?? {} };
}
