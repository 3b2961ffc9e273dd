import { sql } from "drizzle-orm";
import type { TypedJobQueue } from "@/lib/jobs/catalog";
import { statementWithJob } from "@/lib/ports/queue/job-insert";
import type { JobCatalogShape, JobQueue } from "@/lib/ports/queue";

/**
 * The app's queue without the job catalog's types: for a test's own jobs (`define("test.…")`) and for
 * payloads enqueued the way an older release or a hand would, which the catalog rightly refuses.
 */
export function untypedQueue(queue: TypedJobQueue): JobQueue<JobCatalogShape> {
  return queue as unknown as JobQueue<JobCatalogShape>;
}

/**
 * A statement that inserts only a job (its payload in the placeholder `job`, a jobPayload) and answers
 * whether it sent the NOTIFY itself: statementWithJob as the hot writes use it, with no row of their own.
 */
export const jobAloneStatement = statementWithJob("test_job_alone", (insertion) => {
  const payload = sql`${sql.placeholder("job")}`;
  return sql`with "mine" as (select 1 as one)${insertion.ctes("job", payload)} select ${insertion.notifiedColumn("job")} as "notified" from "mine"`;
});
