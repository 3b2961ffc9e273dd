import { and, eq, gte, sql } from "drizzle-orm";
import { webhookAttempts } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";

const HOUR_MS = 3600_000;

/**
 * Delivery success over time: the project's attempts in the last `hours` hours, per hour, split into
 * succeeded (2xx) and failed (anything else, timeouts and refused connections included). Hours
 * without attempts are present with zeros so a chart has an even time axis.
 */
export async function deliveryStats(ctx: Ctx, hours: number) {
  const end = Math.floor(ctx.now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS;
  const start = end - hours * HOUR_MS;
  const bucket = sql<string>`to_char(date_trunc('hour', ${webhookAttempts.startedAt} at time zone 'UTC'), 'YYYY-MM-DD"T"HH24')`;
  const ok = sql`${webhookAttempts.statusCode} between 200 and 299`;
  const rows = await ctx.db
    .select({
      hour: bucket,
      succeeded: sql<number>`count(*) filter (where ${ok})`.mapWith(Number),
      failed: sql<number>`count(*) filter (where not coalesce(${ok}, false))`.mapWith(Number),
      p50: sql<number | null>`percentile_cont(0.5) within group (order by ${webhookAttempts.durationMs})`.mapWith((v) =>
        v === null ? null : Math.round(Number(v)),
      ),
    })
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.projectId, ctx.project.id), gte(webhookAttempts.startedAt, new Date(start))))
    .groupBy(bucket);
  const byHour = new Map(rows.map((r) => [r.hour, r]));
  const buckets = [];
  for (let t = start; t < end; t += HOUR_MS) {
    const key = new Date(t).toISOString().slice(0, 13);
    const row = byHour.get(key);
    buckets.push({ start: new Date(t).toISOString(), succeeded: row?.succeeded ?? 0, failed: row?.failed ?? 0, median_latency_ms: row?.p50 ?? null });
  }
  const succeeded = buckets.reduce((n, b) => n + b.succeeded, 0);
  const failed = buckets.reduce((n, b) => n + b.failed, 0);
  return {
    object: "webhook_delivery_stats" as const,
    hours,
    buckets,
    totals: { succeeded, failed, success_rate: succeeded + failed === 0 ? null : succeeded / (succeeded + failed) },
  };
}
