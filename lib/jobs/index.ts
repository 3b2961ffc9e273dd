import type { Db } from "@/lib/ports/db/types";
import type { Clock } from "@/lib/ports/clock";
import type { JobQueue } from "@/lib/ports/queue";
import type { ProviderPort } from "@/lib/ports/provider/types";
import type { Limiter } from "@/lib/ports/limiter";
import { PROVIDER_SEND_JOB, deliverToProvider, type ProviderSendJob } from "@/lib/domain/messages/jobs";
import { awaitPairSlot } from "@/lib/domain/messages/internal-pacing";
import { INGEST_JOB, INGEST_RETRY_LIMIT, STATUS_RETRY_JOB, processInboundWebhook, retryPendingStatus } from "@/lib/domain/ingest/process";
import type { InboundEvent } from "@/lib/domain/ingest/types";
import type { ObjectStorage } from "@/lib/ports/storage";
import { MEDIA_CACHE_JOB, MEDIA_EXPIRE_JOB, MEDIA_RELEASE_JOB, cacheMedia, expireMedia, releaseEvent } from "@/lib/domain/media/cache";
import { WEBHOOK_DELIVER_JOB, type DeliveryJob } from "@/lib/domain/webhooks/enqueue";
import { attemptDelivery } from "@/lib/domain/webhooks/attempt";

export interface JobDeps {
  db: Db;
  queue: JobQueue;
  provider: ProviderPort;
  clock: Clock;
  storage: ObjectStorage;
  limiter: Limiter;
  graphUrl: string;
  publicUrl: string;
}

const EXPIRE_EVERY_MS = 5 * 60_000;

/** Periodic work, started with the workers: one media.expire chain however many processes start, each run scheduling the next. */
export async function scheduleMaintenance(queue: JobQueue): Promise<void> {
  await queue.sendOnce(MEDIA_EXPIRE_JOB, {}, { singletonKey: MEDIA_EXPIRE_JOB });
}

/** Every background job and its retry policy, registered once per process. */
export function registerJobs(deps: JobDeps): void {
  const ingest = { db: deps.db, queue: deps.queue, now: () => deps.clock.now() };
  deps.queue.define<ProviderSendJob>(PROVIDER_SEND_JOB, { localConcurrency: 50, retryLimit: 6, retryDelay: 2, retryBackoff: true, retryDelayMax: 300, expireInSeconds: 60 }, async (data, job) => {
    // Internal sends (the inbox) take their pair slot here, when they are about to go, and wait for it.
    if (data.paced && !(await awaitPairSlot(deps, data))) return;
    await deliverToProvider(deps, data.messageId, job);
  });
  deps.queue.define<{ id: string }>(INGEST_JOB, { localConcurrency: 20, retryLimit: INGEST_RETRY_LIMIT, retryDelay: 1, retryBackoff: true, retryDelayMax: 120, expireInSeconds: 60 }, (data, job) =>
    processInboundWebhook(ingest, data.id, job),
  );
  // Our own retry schedule drives attempts (each is a job); pg-boss retries only a job whose worker
  // died (expired) or hit an internal error. 200 in flight per process (an attempt in flight is a
  // socket and a timer), 50 per project across all workers, so a receiver that answers slowly (up to
  // the 10 s timeout) holds a quarter of one process's slots at most and never delays other projects.
  deps.queue.define<DeliveryJob>(WEBHOOK_DELIVER_JOB, { localConcurrency: 200, groupConcurrency: 50, retryLimit: 5, retryDelay: 1, expireInSeconds: 30 }, async (data) => {
    await attemptDelivery(deps, data);
  });
  // A couple of quick retries (message.received waits at most RELEASE_AFTER_MS for them).
  deps.queue.define<{ mediaId: string; eventId: string | null }>(MEDIA_CACHE_JOB, { localConcurrency: 5, retryLimit: 3, retryDelay: 1, retryBackoff: true, retryDelayMax: 10, expireInSeconds: 60 }, (data, job) =>
    cacheMedia(deps, data, job),
  );
  deps.queue.define<{ eventId: string }>(MEDIA_RELEASE_JOB, { retryLimit: 5, retryDelay: 1, expireInSeconds: 30 }, (data) => releaseEvent(deps, data.eventId));
  deps.queue.define<object>(MEDIA_EXPIRE_JOB, { retryLimit: 3, retryDelay: 30, expireInSeconds: 300 }, async (_data, job) => {
    await expireMedia(deps);
    await deps.queue.sendOnce(MEDIA_EXPIRE_JOB, {}, { singletonKey: MEDIA_EXPIRE_JOB, startAfter: EXPIRE_EVERY_MS, exceptJobId: job.id });
  });
  deps.queue.define<{ event: InboundEvent }>(STATUS_RETRY_JOB, { localConcurrency: 20, retryLimit: 5, retryDelay: 1, retryBackoff: true, retryDelayMax: 30, expireInSeconds: 30 }, (data, job) =>
    retryPendingStatus(ingest, data.event, job),
  );
}
