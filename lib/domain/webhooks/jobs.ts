import { z } from "zod";
import { defineJob } from "@/lib/jobs/define";
import { attemptDelivery } from "./attempt";
import { WEBHOOK_DELIVER_JOB, type DeliveryJob } from "./enqueue";

const DeliveryPayload = z.object({ deliveryId: z.string().min(1), attempt: z.int().min(1) }) satisfies z.ZodType<DeliveryJob>;

/**
 * One delivery attempt (attempt.ts). Our own retry schedule drives attempts (each is a job); pg-boss
 * retries only a job whose worker died (expired) or hit an internal error. 400 in flight per process
 * (an attempt in flight is a socket and a timer), 100 per project across all workers, so a receiver
 * that answers slowly (up to the 10 s timeout) holds a quarter of one process's slots at most and
 * never delays other projects. Measured (README "Performance", deliveries): 200/50 left the worker
 * waiting on receivers at 0.75 cores (1,030/s); 400/100 gave 1,514/s; 800/200 no more (the worker's
 * one thread is then the bound, at 1.0 core).
 */
const webhookDeliverJob = defineJob({
  name: WEBHOOK_DELIVER_JOB,
  schema: DeliveryPayload,
  retry: { limit: 5, delay: 1 },
  expireInSeconds: 30,
  concurrency: { local: 400, group: 100 },
  async handler(ctx, payload) {
    await attemptDelivery(ctx, payload);
  },
});

export const webhookJobs = [webhookDeliverJob];
