import { z } from "zod";
import { defineJob } from "@/lib/jobs/define";
import { pairSlotWait } from "./internal-pacing";
import { PROVIDER_SEND_JOB, deliverToProvider, loadSendTarget, type ProviderSendJob } from "./provider-send";

const ProviderSendPayload = z.object({ messageId: z.string().min(1), paced: z.boolean().optional() }) satisfies z.ZodType<ProviderSendJob>;

/** Hands a queued message to the provider (provider-send.ts); internal sends first wait for their pair slot. */
const providerSendJob = defineJob({
  name: PROVIDER_SEND_JOB,
  schema: ProviderSendPayload,
  retry: { limit: 6, delay: 2, backoff: true, delayMax: 300 },
  expireInSeconds: 60,
  concurrency: { local: 50 },
  async handler(ctx, payload, job) {
    const target = await loadSendTarget(ctx, payload.messageId);
    if (payload.paced) {
      const wait = await pairSlotWait(ctx, target);
      if (wait !== null) {
        // The slot is taken (or the limiter is away): the job puts itself back for when it frees.
        await ctx.ports.queue.send(PROVIDER_SEND_JOB, payload, { startAfter: wait });
        return;
      }
    }
    await deliverToProvider(ctx, target, job);
  },
});

export const messageJobs = [providerSendJob];
