import { z } from "zod";
import { defineJob } from "@/lib/jobs/define";

export const CONTACT_ERASE_FILES_JOB = "contacts.erase-files";
/** Past media.cache's expiry (60 s): by then no run of it can still be writing a file. */
export const LATE_FILES_AFTER_MS = 120_000;

/**
 * Deletes an erased contact's cached files. Enqueued in the erasure's transaction, so it runs only
 * once the rows are gone; deleting a missing file is not an error, so a retry after a partial run
 * (storage down half way) finishes the rest.
 */
const contactEraseFilesJob = defineJob({
  name: CONTACT_ERASE_FILES_JOB,
  schema: z.object({ projectId: z.string().min(1), keys: z.array(z.string().min(1)).max(10_000) }),
  retry: { limit: 10, delay: 5, backoff: true, delayMax: 3600 },
  expireInSeconds: 300,
  concurrency: { local: 2 },
  async handler(ctx, payload) {
    for (const key of payload.keys) await ctx.ports.storage.delete(key);
  },
});

export const contactJobs = [contactEraseFilesJob];
