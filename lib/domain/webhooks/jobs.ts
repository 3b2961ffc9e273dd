import { z } from "zod";
import { defineJob } from "@/lib/jobs/define";
import { attemptDelivery } from "./attempt";
import { WEBHOOK_DELIVER_JOB, type DeliveryJob } from "./enqueue";

const DeliveryPayload = z.object({ deliveryId: z.string().min(1), attempt: z.int().min(1) }) satisfies z.ZodType<DeliveryJob>;

/**
 * One delivery attempt (attempt.ts). Our own retry schedule drives attempts (each is a job); pg-boss
 * retries only a job whose worker died (expired) or hit an internal error. 200 in flight per process
 * (an attempt in flight is a socket and a timer), 50 per project across all workers, so a receiver
 * that answers slowly (up to the 10 s timeout) holds a quarter of one process's slots at most and
 * never delays other projects.
 */
const webhookDeliverJob = defineJob({
  name: WEBHOOK_DELIVER_JOB,
  schema: DeliveryPayload,
  retry: { limit: 5, delay: 1 },
  expireInSeconds: 30,
  concurrency: { local: 200, group: 50 },
  async handler(ctx, payload) {
    const outcome = await attemptDelivery(ctx, payload);
    // "skipped": a rerun of an attempt already settled, not a delivery of its own.
    if (outcome !== "skipped") ctx.ports.metrics.webhookDelivery(outcome);
  },
});

export const webhookJobs = [webhookDeliverJob];
