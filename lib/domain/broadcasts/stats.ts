import { inArray, sql } from "drizzle-orm";
import { broadcastRecipients, broadcasts } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { OUTCOME_UNKNOWN } from "./attempts";

export interface BroadcastStats {
  total: number;
  pending: number;
  queued: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  skipped: number;
  replied: number;
  /** Of `failed`: sends whose outcome is unknown (attempts.ts), which only a deliberate resend sends again. */
  outcome_unknown: number;
}

const EMPTY: BroadcastStats = { total: 0, pending: 0, queued: 0, sent: 0, delivered: 0, read: 0, failed: 0, skipped: 0, replied: 0, outcome_unknown: 0 };

/**
 * Counted from the recipient rows, never kept as counters: the numbers cannot drift from the rows
 * that status callbacks move (one indexed aggregate per page of broadcasts).
 */
export async function statsOf(db: Db, broadcastIds: string[]): Promise<Map<string, BroadcastStats>> {
  const out = new Map<string, BroadcastStats>();
  for (const id of broadcastIds) out.set(id, { ...EMPTY });
  if (broadcastIds.length === 0) return out;
  const count = (status: string) => sql<number>`count(*) filter (where ${broadcastRecipients.status} = ${status})::int`;
  const rows = await db
    .select({
      id: broadcastRecipients.broadcastId,
      total: sql<number>`count(*)::int`,
      pending: count("pending"),
      queued: count("queued"),
      sent: count("sent"),
      delivered: count("delivered"),
      read: count("read"),
      failed: count("failed"),
      skipped: count("skipped"),
      replied: sql<number>`count(${broadcastRecipients.repliedAt})::int`,
      outcome_unknown: sql<number>`count(*) filter (where ${broadcastRecipients.status} = 'failed' and ${broadcastRecipients.error}->>'code' = ${OUTCOME_UNKNOWN})::int`,
    })
    .from(broadcastRecipients)
    .where(inArray(broadcastRecipients.broadcastId, broadcastIds))
    .groupBy(broadcastRecipients.broadcastId);
  for (const { id, ...stats } of rows) out.set(id, stats);
  return out;
}

/**
 * Broadcasts still in progress by status, across every project, for the metrics scrape (never a
 * request). Drafts and finished ones (COMPLETED, CANCELLED, FAILED) are left out: the count stays the size of the work
 * under way, not of history.
 */
export async function readBroadcastsInProgress(db: Db): Promise<{ status: string; count: number }[]> {
  const rows = await db
    .select({ status: broadcasts.status, count: sql<number>`count(*)::int` })
    .from(broadcasts)
    .where(inArray(broadcasts.status, ["SCHEDULED", "SENDING", "PAUSED"]))
    .groupBy(broadcasts.status);
  return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
}
