import { and, eq } from "drizzle-orm";
import { channels } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import { ensureFlowKeys } from "./exchange/keys";

export const FLOW_KEY_JOB = "flows.register-key";

export interface FlowKeyJob {
  channelId: string;
}

/**
 * A PLATFORM_A channel's DATA_EXCHANGE key pair, made and registered with the provider right after
 * connect (docs/spec/decisions.md "Flows"), off the request: a provider that is slow or down then
 * delays no connect. The job retries; a DATA_EXCHANGE publish ensures the same keys again anyway.
 */
export async function registerFlowKey(ctx: SystemCtx, job: FlowKeyJob): Promise<void> {
  const [channel] = await ctx.db
    .select()
    .from(channels)
    .where(and(eq(channels.id, job.channelId), eq(channels.platform, "PLATFORM_A"), eq(channels.status, "connected")));
  if (!channel || channel.flowKeyRegisteredAt) return;
  await ensureFlowKeys(ctx, channel);
}
