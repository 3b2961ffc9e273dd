import { and, eq, isNull, sql } from "drizzle-orm";
import { projects } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";

/**
 * The project's webhook endpoint health, as webhook attempts report it (webhooks/attempt.ts decides
 * when; decisions.md "Webhooks": paused after continuous failure until the webhook is updated).
 */

/** A success after failures: the endpoint is healthy again. */
export async function clearWebhookFailing(db: Db, projectId: string): Promise<void> {
  await db.update(projects).set({ webhookFailingSince: null }).where(eq(projects.id, projectId));
}

/** Keeps the first failure's time; once failing for `pauseAfterMs`, pauses the endpoint (once). */
export async function noteWebhookFailure(db: Db, projectId: string, now: Date, pauseAfterMs: number): Promise<void> {
  await db
    .update(projects)
    .set({ webhookFailingSince: sql`coalesce(${projects.webhookFailingSince}, ${now.toISOString()}::timestamptz)` })
    .where(eq(projects.id, projectId));
  await db
    .update(projects)
    .set({ webhookPausedAt: now })
    .where(
      and(
        eq(projects.id, projectId),
        isNull(projects.webhookPausedAt),
        sql`${projects.webhookFailingSince} <= ${new Date(now.getTime() - pauseAfterMs).toISOString()}::timestamptz`,
      ),
    );
}
