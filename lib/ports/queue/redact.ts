import { sql, type SQL } from "drizzle-orm";
import { anyOf, executeRows } from "@/lib/ports/db/bulk";
import type { Db, Tx } from "@/lib/ports/db/types";

/** What a job row must mention to be redacted: registry ids (as whole tokens) and free text (anywhere). */
export interface JobMentions {
  /** Ids of the id registry (`ct_…`, `msg_…`): matched as whole ids, so thousands of them cost one regex scan per row. */
  ids: string[];
  /** Free-form strings (a phone number's digits, a platform user id): matched anywhere, so keep them few. */
  texts: string[];
}

/** What a redacted finished job's data reads. */
const REDACTED_JOB_DATA = { erased: true } as const;

// The registry's shape (lib/ids.ts): a prefix, "_", a 26-character ulid in lower case.
const REGISTRY_ID = "[a-z]+_[0-9a-z]{26}";

function mentions(column: SQL, match: JobMentions): SQL {
  const text = sql`coalesce(${column}::text, '')`;
  const parts: SQL[] = [];
  if (match.ids.length) {
    parts.push(sql`exists (select 1 from regexp_matches(${text}, ${REGISTRY_ID}, 'g') as found(id) where ${anyOf(sql`found.id[1]`, match.ids)})`);
  }
  for (const value of match.texts) parts.push(sql`strpos(${text}, ${value}) > 0`);
  return parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
}

/**
 * Erasure's pass over the job queue (docs/api-decisions.md "Contact erasure"). pg-boss keeps every job
 * in `pgboss.job` (partitioned by queue; finished jobs stay until their retention ends), with the
 * payload in `data`, a failure in `output`, and a dead letter's copy of it in `source_output`. A row
 * that mentions the contact loses its outputs; a finished one loses its data too. A job still to run
 * keeps its data: it is what the job runs with (ids by design), and the handlers meet the erased rows
 * it points at. Queue rows carry no project, so a finished job of another project that mentions the
 * same number loses its record too: never its work.
 */
export async function redactJobs(db: Tx | Db, match: JobMentions): Promise<number> {
  if (!match.ids.length && !match.texts.length) return 0;
  const finished = sql`state in ('completed', 'cancelled', 'failed')`;
  const rows = await executeRows<{ id: string }>(
    db as Db,
    sql`update pgboss.job
        set data = case when ${finished} then ${JSON.stringify(REDACTED_JOB_DATA)}::jsonb else data end, output = null, source_output = null
        where (${finished} and ${mentions(sql`data`, match)}) or ${mentions(sql`output`, match)} or ${mentions(sql`source_output`, match)}
        returning id`,
  );
  return rows.length;
}
