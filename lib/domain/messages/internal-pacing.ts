import { eq } from "drizzle-orm";
import { channels, messages } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { LimiterUnavailable, type Limiter } from "@/lib/ports/limiter";
import type { JobQueue } from "@/lib/ports/queue";
import { PAIR_INTERVAL_SECONDS, pairKey } from "./pacing";
import { PROVIDER_SEND_JOB, type ProviderSendJob } from "./jobs";

const LIMITER_DOWN_RETRY_MS = 2_000;

/**
 * decisions.md: internal sends (inbox, automations, workers) wait in the queue instead of getting a
 * 429. Such a message's provider job takes the pair slot when it is about to run; when the slot is
 * taken it puts itself back for when the slot frees, and when the limiter is unreachable it waits
 * too (never an unpaced send). Returns true when the job may send now.
 */
export async function awaitPairSlot(deps: { db: Db; queue: JobQueue; limiter: Limiter }, job: ProviderSendJob): Promise<boolean> {
  const [row] = await deps.db
    .select({ status: messages.status, recipient: messages.recipient, channelId: channels.id, platform: channels.platform })
    .from(messages)
    .innerJoin(channels, eq(channels.id, messages.channelId))
    .where(eq(messages.id, job.messageId));
  if (!row || row.status !== "queued" || !row.recipient) return true; // nothing to pace: the send step decides.
  let wait: number;
  try {
    const hit = await deps.limiter.hit("strict", pairKey(row.platform, row.channelId, row.recipient), 1, PAIR_INTERVAL_SECONDS);
    if (hit.allowed) return true;
    wait = Math.max(100, hit.resetAt.getTime() - Date.now());
  } catch (error) {
    if (!LimiterUnavailable.is(error)) throw error;
    wait = LIMITER_DOWN_RETRY_MS;
  }
  await deps.queue.send(PROVIDER_SEND_JOB, job, { startAfter: wait });
  return false;
}
