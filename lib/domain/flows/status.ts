import { and, eq } from "drizzle-orm";
import { flows } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import { emitStatusChange } from "./publish";

const PROVIDER_STATUSES: ReadonlySet<string> = new Set(["DRAFT", "PUBLISHED", "DEPRECATED", "BLOCKED", "THROTTLED"]);

/**
 * The provider's flows webhook (FLOW_STATUS_CHANGE) for the provider flow a Flow currently sends:
 * meta_status follows it and flow.status is emitted once per real change (the publish job already
 * recorded its own DRAFT → PUBLISHED, so that echo changes nothing). A DEPRECATED from the provider
 * deprecates the Flow. Changes of an older version's provider flow (deprecated by a re-publish) and
 * of flows another service created are ignored. Concurrent deliveries: the conditional update lets one win.
 */
export async function applyFlowStatusChange(
  ctx: SystemCtx,
  change: { businessAccountId: string; metaFlowId: string; newStatus: string; message: string | null },
): Promise<void> {
  if (!PROVIDER_STATUSES.has(change.newStatus)) return;
  const [row] = await ctx.db
    .select()
    .from(flows)
    .where(and(eq(flows.metaFlowId, change.metaFlowId), eq(flows.metaWabaId, change.businessAccountId)));
  if (!row || row.metaStatus === change.newStatus) return;
  // A publish in flight owns meta_status until its job settles; the live version's status still counts for sends.
  if (row.metaStatus === "PUBLISHING" && change.newStatus === "PUBLISHED") return;
  const reason = change.newStatus === "PUBLISHED" ? null : change.message;
  await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(flows)
      .set({
        metaStatus: change.newStatus,
        metaStatusReason: reason,
        ...(change.newStatus === "DEPRECATED" ? { status: "DEPRECATED" as const } : {}),
        lastSyncedAt: ctx.now,
        updatedAt: ctx.now,
      })
      .where(and(eq(flows.id, row.id), row.metaStatus === null ? undefined : eq(flows.metaStatus, row.metaStatus)))
      .returning({ id: flows.id });
    if (updated) await emitStatusChange({ ...ctx, db: tx }, row, change.newStatus, reason);
  });
}
