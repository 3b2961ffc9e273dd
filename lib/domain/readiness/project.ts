import { and, eq } from "drizzle-orm";
import { channels } from "@/lib/db/schema";
import type { Ctx, ProjectRow } from "@/lib/domain/context";
import { refreshProviderStatuses } from "@/lib/domain/channels/provider-statuses";
import { getProjectRowOrThrow } from "@/lib/domain/projects";
import { loadReadinessFacts } from "./facts";
import { assessReadiness } from "./assess";

export { assessReadiness } from "./assess";
export { loadReadinessFacts, type ReadinessFacts } from "./facts";
export { isProductionInboundReady, isSandboxTestable, overallStatusOf } from "./headline";
export { REQUIREMENTS } from "./requirements";

/**
 * GET /projects/{id}/readiness: the project's own number's provider statuses first (read again when
 * stale), then the facts (./facts.ts), judged (./assess.ts).
 */
export async function getProjectReadiness(ctx: Ctx, projectId: string) {
  const project = await getProjectRowOrThrow(ctx, projectId);
  await refreshOwnNumber(ctx, project);
  return assessReadiness(await loadReadinessFacts(ctx, project));
}

/**
 * Where a developer looks after a 412 channel_not_ready on POST /templates: the provider's word now,
 * not the one from the connect (an account approved since then becomes ready here).
 */
async function refreshOwnNumber(ctx: Ctx, project: ProjectRow): Promise<void> {
  if (!project.channelId) return;
  const [channel] = await ctx.db
    .select()
    .from(channels)
    .where(and(eq(channels.id, project.channelId), eq(channels.organizationId, project.organizationId)));
  if (channel) await refreshProviderStatuses(ctx, channel);
}
