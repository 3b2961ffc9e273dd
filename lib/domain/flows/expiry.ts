import { and, eq, inArray, lte } from "drizzle-orm";
import { flowDispatches } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";

export const FLOW_EXPIRE_JOB = "flows.expire-dispatches";
const BATCH = 1000;

/**
 * Marks SENT dispatches past expires_at EXPIRED, a batch at a time (each its own short statement, so
 * a backlog never holds a long lock). Returns how many it expired. A completion arriving later is
 * stored REJECTED (DISPATCH_EXPIRED) whether or not this ran yet: completion checks expires_at itself.
 */
export async function expireDispatches(ctx: Pick<SystemCtx, "db" | "now">): Promise<number> {
  let total = 0;
  for (;;) {
    const due = ctx.db
      .select({ id: flowDispatches.id })
      .from(flowDispatches)
      .where(and(eq(flowDispatches.status, "SENT"), lte(flowDispatches.expiresAt, ctx.now)))
      .limit(BATCH);
    const expired = await ctx.db
      .update(flowDispatches)
      .set({ status: "EXPIRED" })
      .where(and(inArray(flowDispatches.id, due), eq(flowDispatches.status, "SENT")))
      .returning({ id: flowDispatches.id });
    total += expired.length;
    if (expired.length < BATCH) return total;
  }
}
