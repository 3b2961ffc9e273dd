import type { TypedJobQueue } from "@/lib/jobs/catalog";
import type { Db, Tx } from "@/lib/ports/db/types";
import type { AgentRow } from "./serialize";

export const AGENT_PROVISION_JOB = "agents.provision";

export interface AgentProvisionJob {
  businessAgentId: string;
  projectId: string;
}

type Status = AgentRow["status"];

/** What a write to an agent's settings or skills leads to: its next status, and whether the job must (re)sync the provider. */
export interface Transition {
  status: Status;
  provision: boolean;
}

/**
 * The status rules of docs/spec/decisions.md "Business agents", pure. `enabled: false` → DISABLED
 * (the provider's agent, if there is one, is told so). Otherwise a first apply, a retry after ERROR
 * or a re-enable → PROVISIONING until the job answers; an ACTIVE agent stays ACTIVE while the job
 * sends the new settings.
 */
export function planTransition(current: Pick<AgentRow, "status" | "metaAgentId"> | null, settings: Record<string, unknown>): Transition {
  if (settings.enabled === false) return { status: "DISABLED", provision: Boolean(current?.metaAgentId) };
  if (current?.status === "ACTIVE") return { status: "ACTIVE", provision: true };
  return { status: "PROVISIONING", provision: true };
}

/** Enqueues agents.provision inside the write's transaction: the job exists if and only if the write commits. */
export async function enqueueProvision(queue: TypedJobQueue, tx: Tx | Db, row: Pick<AgentRow, "id" | "projectId">): Promise<void> {
  const job: AgentProvisionJob = { businessAgentId: row.id, projectId: row.projectId };
  await queue.send(AGENT_PROVISION_JOB, job, { tx, group: row.projectId });
}
