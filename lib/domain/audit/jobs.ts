import { z } from "zod";
import { defineJob } from "@/lib/jobs/define";
import { AUDIT_EXPIRE_JOB, expireAuditEvents } from "./retention";

const EXPIRE_EVERY_MS = 24 * 3600_000;

/** The audit log keeps 90 days: one daily chain per deployment (lib/jobs scheduleMaintenance starts it), each run scheduling the next. */
export const auditExpireJob = defineJob({
  name: AUDIT_EXPIRE_JOB,
  schema: z.object({}),
  retry: { limit: 3, delay: 60 },
  expireInSeconds: 600,
  async handler(ctx, _payload, job) {
    await expireAuditEvents(ctx);
    await ctx.ports.queue.sendOnce(AUDIT_EXPIRE_JOB, {}, { singletonKey: AUDIT_EXPIRE_JOB, startAfter: EXPIRE_EVERY_MS, exceptJobId: job.id });
  },
});

export const auditJobs = [auditExpireJob];
