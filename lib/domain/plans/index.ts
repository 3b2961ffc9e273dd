import { sql } from "drizzle-orm";
import { plans } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys/auth-cache";

const DAY = 86_400;

/** docs/spec/decisions.md "Plans and limits". Custom plans (for example the benchmark's) are added with the CLI. */
const BUILT_IN_PLANS = [
  { id: "free", name: "Free", requestsPerWindow: 600, windowSeconds: 60, monthlyRequests: 100_000, mediaRetentionSeconds: DAY },
  { id: "pro", name: "Pro", requestsPerWindow: 3000, windowSeconds: 60, monthlyRequests: 1_000_000, mediaRetentionSeconds: 7 * DAY },
] as const;

export async function ensureBuiltInPlans(db: Db): Promise<void> {
  await db
    .insert(plans)
    .values([...BUILT_IN_PLANS])
    .onConflictDoUpdate({
      target: plans.id,
      set: {
        name: sql`excluded.name`,
        requestsPerWindow: sql`excluded.requests_per_window`,
        windowSeconds: sql`excluded.window_seconds`,
        monthlyRequests: sql`excluded.monthly_requests`,
        mediaRetentionSeconds: sql`excluded.media_retention_seconds`,
      },
    });
}

export async function upsertPlan(db: Db, plan: typeof plans.$inferInsert) {
  const [row] = await db
    .insert(plans)
    .values(plan)
    .onConflictDoUpdate({ target: plans.id, set: { ...plan } })
    .returning();
  forgetAuthenticatedKeys();
  return row!;
}

/** The calendar month the monthly quota counts in, e.g. "2026-11" (UTC). */
export function quotaPeriod(now: Date): string {
  return now.toISOString().slice(0, 7);
}

export function startOfNextMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}
