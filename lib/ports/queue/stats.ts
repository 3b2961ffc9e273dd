import { sql } from "drizzle-orm";
import type { Db } from "@/lib/ports/db/types";
import { anyOf, executeRows } from "@/lib/ports/db/bulk";
import type { QueueReading } from "@/lib/ports/metrics";

/**
 * Queue depth and age per job name, for the metrics scrape (not for any request). Waiting jobs are
 * counted through pg-boss's own partial index on them (job_i11: state < active, not blocked), so
 * completed history is never scanned; the active count is pg-boss's cached one (queue.active_count,
 * refreshed by its monitor about once a minute), for the same reason.
 */
export async function readQueueStats(db: Db): Promise<QueueReading[]> {
  const rows = await executeRows<{ name: string; ready: number; deferred: number; active: number; oldest: number }>(
    db,
    sql`select q.name, coalesce(w.ready, 0)::int as ready, coalesce(w.deferred, 0)::int as deferred, q.active_count::int as active,
          coalesce(w.oldest, 0)::float8 as oldest
        from pgboss.queue q
        left join (
          select name,
            count(*) filter (where start_after <= now()) as ready,
            count(*) filter (where start_after > now()) as deferred,
            extract(epoch from now() - min(start_after) filter (where start_after <= now())) as oldest
          from pgboss.job where state < 'active' and not blocked group by name
        ) w on w.name = q.name`,
  );
  return rows.map((row) => ({
    queue: row.name,
    ready: Number(row.ready),
    deferred: Number(row.deferred),
    active: Number(row.active),
    oldestReadySeconds: Math.max(0, Number(row.oldest)),
  }));
}

/**
 * Jobs this process took and could not finish before it shut down (lib/server/shutdown.ts) go back to
 * the queue at once, as if never taken: started_on cleared, so the next fetch does not count a retry
 * (pg-boss counts one when a job it hands out had started before). Fenced to still-active rows: a job
 * that settled meanwhile is left as it is. Without this they would wait for their expiry.
 */
export async function giveBackJobs(db: Db, jobs: readonly { name: string; id: string }[]): Promise<number> {
  if (jobs.length === 0) return 0;
  const names = [...new Set(jobs.map((job) => job.name))];
  // Names too: pg-boss's primary key is (name, id).
  const rows = await executeRows<{ id: string }>(
    db,
    sql`update pgboss.job set state = 'retry', start_after = now(), started_on = null, heartbeat_on = null
        where ${anyOf(sql`name`, names)} and id = any(${uuidArray(jobs.map((job) => job.id))}::uuid[]) and state = 'active' returning id`,
  );
  return rows.length;
}

/** pg-boss ids are uuids: anything else is refused rather than spliced into the array literal. */
function uuidArray(ids: string[]): string {
  for (const id of ids) if (!/^[0-9a-f-]{36}$/i.test(id)) throw new Error(`not a job id: ${id}`);
  return `{${ids.join(",")}}`;
}
