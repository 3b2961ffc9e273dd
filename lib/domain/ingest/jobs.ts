import { z } from "zod";
import { defineJob } from "@/lib/jobs/define";
import type { InboundEvent } from "./types";
import { INGEST_JOB, INGEST_RETRY_LIMIT, STATUS_RETRY_JOB, STATUS_RETRY_LIMIT, processInboundWebhook, retryPendingStatus } from "./process";

/**
 * A pending item as process.ts enqueued it: its kind and channel address are checked; the rest is the
 * normaliser's own output (normalize*.ts), applied as it was. Typed as what a send passes, an
 * InboundEvent (the loose object's index signature would refuse the normaliser's interfaces).
 */
const PendingEvent = z
  .looseObject({
    kind: z.enum(["message", "echo", "status", "call", "identity_change"]),
    platform: z.enum(["PLATFORM_A", "PLATFORM_B", "PLATFORM_C"]),
    senderId: z.string().min(1),
  })
  .transform((event) => event as unknown as InboundEvent) as unknown as z.ZodType<InboundEvent, InboundEvent>;

/** Normalises and applies one stored provider envelope (process.ts); after the last retry it is a dead letter. */
const ingestProcessJob = defineJob({
  name: INGEST_JOB,
  schema: z.object({ id: z.string().min(1) }),
  retry: { limit: INGEST_RETRY_LIMIT, delay: 1, backoff: true, delayMax: 120 },
  expireInSeconds: 60,
  concurrency: { local: 20 },
  handler: (ctx, payload, job) => processInboundWebhook(ctx, payload, job),
});

/** Applies again an item that outran what it refers to (a status before its send job stored the provider id). */
export const statusRetryJob = defineJob({
  name: STATUS_RETRY_JOB,
  schema: z.object({ event: PendingEvent }),
  retry: { limit: STATUS_RETRY_LIMIT, delay: 1, backoff: true, delayMax: 30 },
  expireInSeconds: 30,
  concurrency: { local: 20 },
  handler: (ctx, payload, job) => retryPendingStatus(ctx, payload, job),
});

export const ingestJobs = [ingestProcessJob, statusRetryJob];
