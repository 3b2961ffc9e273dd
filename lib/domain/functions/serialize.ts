import type { functionDrafts, functionInvocations, functionVersions, hostedFunctions } from "@/lib/db/schema";

export type FunctionRow = typeof hostedFunctions.$inferSelect;
export type FunctionVersionRow = typeof functionVersions.$inferSelect;
export type InvocationRow = typeof functionInvocations.$inferSelect;
export type FunctionDraftRow = typeof functionDrafts.$inferSelect;

/** `<slug>-v<n>`: the name the deployed script goes by (decisions.md "Hosted functions"). */
export function scriptName(slug: string, number: number): string {
  return `${slug}-v${number}`;
}

/** The wire HostedFunction; `source` (the active version's) only for the single GET. */
export function serializeFunction(row: FunctionRow, source?: string | null) {
  return {
    object: "hosted_function" as const,
    id: row.id,
    slug: row.slug,
    name: row.name,
    trigger_type: row.triggerType,
    script_name: row.scriptName,
    runtime: row.runtime,
    active_version_id: row.activeVersionId,
    expose_as_mcp_tool: row.exposeAsMcpTool,
    input_schema: row.inputSchema ?? null,
    is_active: row.isActive,
    ...(source !== undefined ? { source } : {}),
    last_deployed_at: row.lastDeployedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function serializeVersion(row: FunctionVersionRow, fn: FunctionRow, includeSource: boolean) {
  return {
    object: "function_version" as const,
    id: row.id,
    function_id: row.functionId,
    number: row.number,
    script_name: scriptName(fn.slug, row.number),
    runtime: row.runtime,
    bytes: row.bytes,
    is_active: fn.activeVersionId === row.id,
    ...(includeSource ? { source: row.source } : {}),
    created_at: row.createdAt.toISOString(),
  };
}

/** The wire FunctionDraft: every field but `function_id` is null when no draft is saved. */
export function serializeDraft(fn: FunctionRow, row: FunctionDraftRow | null) {
  return {
    object: "function_draft" as const,
    function_id: fn.id,
    source: row?.source ?? null,
    bytes: row?.bytes ?? null,
    base_version_id: row?.baseVersionId ?? null,
    updated_at: row?.updatedAt.toISOString() ?? null,
  };
}

export function serializeInvocation(row: InvocationRow) {
  return {
    object: "function_invocation" as const,
    id: row.id,
    function_id: row.functionId,
    version_id: row.versionId,
    event_type: row.eventType,
    status: row.status,
    cpu_ms: row.cpuMs,
    sub_requests: row.subRequests,
    duration_ms: row.durationMs,
    error: row.error,
    logs: row.logs,
    input: row.input ?? null,
    result: row.result ?? null,
    started_at: row.startedAt.toISOString(),
  };
}
