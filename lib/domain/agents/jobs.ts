import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { businessAgents, channels } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import { providerAccountOf } from "@/lib/domain/channels/provider-account";
import { defineJob, type JobRun } from "@/lib/jobs/define";
import { ProviderError } from "@/lib/ports/provider/types";
import type { ProviderAgentSpec } from "@/lib/ports/provider/agents";
import { AGENT_PROVISION_JOB, type AgentProvisionJob } from "./provision";
import type { AgentRow } from "./serialize";

type Outcome = Partial<Pick<AgentRow, "status" | "metaAgentId" | "errorMessage">>;

/**
 * Records the job's outcome unless the agent was written since it was read: that write queued a job
 * of its own, which sends the newer settings. A provider agent id is kept either way (the provider
 * keeps one agent per number, so the next run finds the same one).
 */
async function settle(ctx: SystemCtx, row: AgentRow, outcome: Outcome): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const where = and(eq(businessAgents.projectId, row.projectId), eq(businessAgents.id, row.id));
    const [current] = await tx.select().from(businessAgents).where(where).for("update");
    if (!current) return;
    const unchanged =
      current.status === row.status &&
      JSON.stringify(current.settings) === JSON.stringify(row.settings) &&
      JSON.stringify(current.skills) === JSON.stringify(row.skills);
    const now = ctx.ports.clock.now();
    if (unchanged)
      await tx
        .update(businessAgents)
        .set({ ...outcome, updatedAt: now })
        .where(where);
    else if (outcome.metaAgentId && !current.metaAgentId) await tx.update(businessAgents).set({ metaAgentId: outcome.metaAgentId }).where(where);
  });
}

function specOf(row: AgentRow): ProviderAgentSpec {
  return { enabled: row.status !== "DISABLED", settings: row.settings, skills: row.skills };
}

/**
 * agents.provision: PROVISIONING → ACTIVE with the provider's agent id, or ERROR with error_message
 * when the provider refuses (throttling and outages retry first). An ACTIVE or DISABLED agent that
 * the provider knows gets its settings sent again; a refusal then only sets error_message. The
 * shared sandbox is the service's number, not the project's: its agents run offline (the engine)
 * and need nothing from the provider.
 */
export async function runAgentProvision(ctx: SystemCtx, job: AgentProvisionJob, run: JobRun): Promise<void> {
  const [row] = await ctx.db
    .select()
    .from(businessAgents)
    .where(and(eq(businessAgents.projectId, job.projectId), eq(businessAgents.id, job.businessAgentId)));
  if (!row) return;
  const provisioning = row.status === "PROVISIONING";
  if (!provisioning && !(row.metaAgentId && (row.status === "ACTIVE" || row.status === "DISABLED"))) return;
  const [channel] = await ctx.db.select().from(channels).where(eq(channels.id, row.channelId));
  if (!channel) return settle(ctx, row, { status: "ERROR", errorMessage: "The agent's channel is gone; apply the agent to another channel." });
  if (channel.isSandbox) return provisioning ? settle(ctx, row, { status: "ACTIVE", errorMessage: null }) : undefined;
  const account = providerAccountOf(channel, ctx.settings);
  try {
    const spec = specOf(row);
    let metaAgentId = row.metaAgentId;
    if (metaAgentId) await ctx.ports.provider.agents.updateAgent(account, metaAgentId, spec);
    else metaAgentId = (await ctx.ports.provider.agents.createAgent(account, spec)).id;
    await settle(ctx, row, { ...(provisioning ? { status: "ACTIVE" as const } : {}), metaAgentId, errorMessage: null });
  } catch (error) {
    if (!ProviderError.is(error)) throw error;
    if (error.retryable && run.retryCount < run.retryLimit) throw error;
    const code = error.failure.code === null ? "" : ` (code ${error.failure.code})`;
    const errorMessage = `The provider refused the agent${code}: ${error.failure.summary}. Fix the cause and apply the agent again (POST /business-agents).`;
    await settle(ctx, row, provisioning ? { status: "ERROR", errorMessage } : { errorMessage });
  }
}

/** Creates or updates the agent at the provider; throttling and outages retry with backoff, then ERROR. */
const agentProvisionJob = defineJob({
  name: AGENT_PROVISION_JOB,
  schema: z.object({ businessAgentId: z.string().min(1), projectId: z.string().min(1) }),
  retry: { limit: 5, delay: 5, backoff: true, delayMax: 120 },
  expireInSeconds: 120,
  concurrency: { local: 2 },
  handler: (ctx, payload, run) => runAgentProvision(ctx, payload, run),
});

export const agentJobs = [agentProvisionJob];
