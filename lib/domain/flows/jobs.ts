import { z } from "zod";
import { defineJob } from "@/lib/jobs/define";
import { FLOW_PUBLISH_JOB, runFlowPublish } from "./publish-job";
import { FLOW_EXPIRE_JOB, expireDispatches } from "./expiry";
import { FLOW_KEY_JOB, registerFlowKey } from "./key-job";

const EXPIRE_EVERY_MS = 10 * 60_000;

/** Creates and publishes the provider flow; throttling and outages retry with backoff, then PUBLISH_FAILED. */
const flowPublishJob = defineJob({
  name: FLOW_PUBLISH_JOB,
  schema: z.object({ flowId: z.string().min(1), projectId: z.string().min(1), revision: z.number().int().min(1) }),
  retry: { limit: 5, delay: 5, backoff: true, delayMax: 120 },
  expireInSeconds: 120,
  concurrency: { local: 2 },
  handler: (ctx, payload, job) => runFlowPublish(ctx, payload, job),
});

/** The dispatch expiry sweep: one chain per deployment (lib/jobs scheduleMaintenance starts it), each run scheduling the next. */
const flowExpireJob = defineJob({
  name: FLOW_EXPIRE_JOB,
  schema: z.object({}),
  retry: { limit: 3, delay: 30 },
  expireInSeconds: 300,
  async handler(ctx, _payload, job) {
    await expireDispatches(ctx);
    await ctx.ports.queue.sendOnce(FLOW_EXPIRE_JOB, {}, { singletonKey: FLOW_EXPIRE_JOB, startAfter: EXPIRE_EVERY_MS, exceptJobId: job.id });
  },
});

/** The number's DATA_EXCHANGE key, registered after a PLATFORM_A connect; an unreachable provider retries with backoff for about an hour. */
const flowKeyJob = defineJob({
  name: FLOW_KEY_JOB,
  schema: z.object({ channelId: z.string().min(1) }),
  retry: { limit: 8, delay: 10, backoff: true, delayMax: 900 },
  expireInSeconds: 120,
  concurrency: { local: 2 },
  handler: (ctx, payload) => registerFlowKey(ctx, payload),
});

export const flowJobs = [flowPublishJob, flowExpireJob, flowKeyJob];
