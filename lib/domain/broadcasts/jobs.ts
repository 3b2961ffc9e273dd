import { z } from "zod";
import { defineJob } from "@/lib/jobs/define";
import { withLegacyKeys } from "@/lib/jobs/legacy-keys";
import { rootMessage } from "@/lib/error-kind";
import { pauseRun } from "./run-state";
import { runBroadcastSlice } from "./sender";
import { BROADCAST_RUN_JOB } from "./run-job-name";
import { BROADCAST_RELEASE_JOB, releaseCancelled } from "./leftovers";

/**
 * One slice of a broadcast's sending (sender.ts): ≤ 20 s, then it queues its own continuation, so no
 * job runs long enough to expire and a dead worker's slice is simply run again (messages already
 * queued are picked up, never written twice). One slice at a time per broadcast: each slice queues
 * the next only at its end, and a send/pause moves the generation that older slices check.
 */
export const broadcastRunJob = defineJob({
  name: BROADCAST_RUN_JOB,
  // Since issue 33 (camelCase payload keys): drop the old key one release later.
  schema: withLegacyKeys(z.object({ broadcastId: z.string().min(1), generation: z.number().int().min(0) }), { broadcast_id: "broadcastId" }),
  retry: { limit: 10, delay: 2, backoff: true, delayMax: 60 },
  expireInSeconds: 120,
  concurrency: { local: 4 },
  async handler(ctx, payload, job) {
    try {
      await runBroadcastSlice(ctx, payload);
    } catch (error) {
      // Out of retries, the run would stay SENDING with no sender for ever: it pauses and says why
      // instead, so an operator sees it and can resume once the cause is gone (nothing is lost).
      if (job.retryCount < job.retryLimit) throw error;
      console.error(`[broadcasts] ${payload.broadcastId} paused: its sender failed ${job.retryCount + 1} times; last error: ${rootMessage(error)}`);
      await pauseRun(ctx.db, payload, "sender_failed", ctx.ports.clock.now());
    }
  },
});

/** A cancelled run's leftovers (leftovers.ts), once no slice of it can still be sending. */
const broadcastReleaseJob = defineJob({
  name: BROADCAST_RELEASE_JOB,
  // Since issue 33 (camelCase payload keys): drop the old key one release later.
  schema: withLegacyKeys(z.object({ broadcastId: z.string().min(1) }), { broadcast_id: "broadcastId" }),
  retry: { limit: 10, delay: 5, backoff: true, delayMax: 300 },
  expireInSeconds: 120,
  async handler(ctx, payload) {
    await releaseCancelled(ctx, payload.broadcastId);
  },
});

export const broadcastJobs = [broadcastRunJob, broadcastReleaseJob];
