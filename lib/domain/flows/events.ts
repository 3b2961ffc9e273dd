import type { SystemCtx } from "@/lib/domain/context";
import { emitEvent } from "@/lib/domain/events";

/** flow.status (docs/spec/decisions.md "Flows"): every PUBLISHED / BLOCKED / THROTTLED / DEPRECATED change, ours or the provider's. */
export interface FlowStatusPayload {
  flow_id: string;
  meta_flow_id: string | null;
  config_key: string | null;
  locale: string | null;
  old_status: string | null;
  new_status: string;
  reason: string | null;
  occurred_at: string;
}

/** flow.completed: one per flow_token, with the validated submission. */
export interface FlowCompletedPayload {
  flow_id: string;
  flow_token: string;
  dispatch_id: string;
  submission_id: string;
  submission: Record<string, unknown>;
  contact_id: string | null;
  conversation_id: string | null;
  channel_id: string;
  from: string | null;
  contact_reference: string | null;
  customer_reference: string | null;
  agent_id: string;
  organization_id: string;
  config_key: string | null;
  locale: string | null;
  completed_at: string;
}

const STATUS_EVENTS: ReadonlySet<string> = new Set(["PUBLISHED", "BLOCKED", "THROTTLED", "DEPRECATED"]);

/** Emits flow.status for the statuses the contract names (PUBLISHING and PUBLISH_FAILED are ours, shown on the Flow only). */
export async function emitFlowStatus(ctx: Pick<SystemCtx, "db" | "ports">, projectId: string, payload: FlowStatusPayload, at: Date): Promise<void> {
  if (!STATUS_EVENTS.has(payload.new_status)) return;
  await emitEvent(ctx, { project: { id: projectId }, type: "flow.status", payload: { ...payload }, at });
}
