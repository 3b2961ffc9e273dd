import { z } from "zod";
import { defineJob } from "@/lib/jobs/define";
import { MEDIA_CACHE_JOB, MEDIA_EXPIRE_JOB, MEDIA_RELEASE_JOB, cacheMedia, expireMedia, releaseEvent } from "./cache";

const EXPIRE_EVERY_MS = 5 * 60_000;

/** Fetches and stores one inbound file. A couple of quick retries: message.received waits at most RELEASE_AFTER_MS for them. */
const mediaCacheJob = defineJob({
  name: MEDIA_CACHE_JOB,
  schema: z.object({ mediaId: z.string().min(1), eventId: z.string().min(1).nullable() }),
  retry: { limit: 3, delay: 1, backoff: true, delayMax: 10 },
  expireInSeconds: 60,
  concurrency: { local: 5 },
  handler: (ctx, payload, job) => cacheMedia(ctx, payload, job),
});

/** The deadline of a held message.received: it goes to the webhook now, files cached or not. */
const mediaReleaseJob = defineJob({
  name: MEDIA_RELEASE_JOB,
  schema: z.object({ eventId: z.string().min(1) }),
  retry: { limit: 5, delay: 1 },
  expireInSeconds: 30,
  handler: (ctx, payload) => releaseEvent(ctx, payload.eventId),
});

/** Retention: one chain per deployment (lib/jobs scheduleMaintenance starts it), each run scheduling the next. */
const mediaExpireJob = defineJob({
  name: MEDIA_EXPIRE_JOB,
  schema: z.object({}),
  retry: { limit: 3, delay: 30 },
  expireInSeconds: 300,
  async handler(ctx, _payload, job) {
    await expireMedia(ctx);
    await ctx.ports.queue.sendOnce(MEDIA_EXPIRE_JOB, {}, { singletonKey: MEDIA_EXPIRE_JOB, startAfter: EXPIRE_EVERY_MS, exceptJobId: job.id });
  },
});

export const mediaJobs = [mediaCacheJob, mediaReleaseJob, mediaExpireJob];
