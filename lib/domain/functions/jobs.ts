import { z } from "zod";
import { defineJob } from "@/lib/jobs/define";
import { FUNCTION_INVOCATIONS_EXPIRE_JOB, expireInvocations } from "./invocations";

const EXPIRE_EVERY_MS = 60 * 60_000;

/** The invocation log keeps 7 days: one chain per deployment (lib/jobs scheduleMaintenance starts it), each run scheduling the next. */
const functionInvocationsExpireJob = defineJob({
  name: FUNCTION_INVOCATIONS_EXPIRE_JOB,
  schema: z.object({}),
  retry: { limit: 3, delay: 30 },
  expireInSeconds: 300,
  async handler(ctx, _payload, job) {
    await expireInvocations(ctx);
    await ctx.ports.queue.sendOnce(
      FUNCTION_INVOCATIONS_EXPIRE_JOB,
      {},
      { singletonKey: FUNCTION_INVOCATIONS_EXPIRE_JOB, startAfter: EXPIRE_EVERY_MS, exceptJobId: job.id },
    );
  },
});

export const functionJobs = [functionInvocationsExpireJob];
