import { inArray, lt } from "drizzle-orm";
import { auditEvents } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";

/** docs/spec/decisions.md "Developer tools": audit events are kept 90 days. */
export const AUDIT_RETENTION_MS = 90 * 24 * 3600_000;
export const AUDIT_EXPIRE_JOB = "audit.expire";

const BATCH = 1000;

/** Deletes entries older than 90 days, a batch at a time (one statement never holds a huge lock). */
export async function expireAuditEvents(ctx: Pick<SystemCtx, "db" | "now">): Promise<number> {
  const cutoff = new Date(ctx.now.getTime() - AUDIT_RETENTION_MS);
  let total = 0;
  for (;;) {
    const due = ctx.db.select({ id: auditEvents.id }).from(auditEvents).where(lt(auditEvents.createdAt, cutoff)).limit(BATCH);
    const deleted = await ctx.db.delete(auditEvents).where(inArray(auditEvents.id, due)).returning({ id: auditEvents.id });
    total += deleted.length;
    if (deleted.length < BATCH) return total;
  }
}
