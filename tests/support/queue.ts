import type { TypedJobQueue } from "@/lib/jobs/catalog";
import type { JobCatalogShape, JobQueue } from "@/lib/ports/queue";

/**
 * The app's queue without the job catalog's types: for a test's own jobs (`define("test.…")`) and for
 * payloads enqueued the way an older release or a hand would, which the catalog rightly refuses.
 */
export function untypedQueue(queue: TypedJobQueue): JobQueue<JobCatalogShape> {
  return queue as unknown as JobQueue<JobCatalogShape>;
}
