import { LimiterUnavailable } from "@/lib/ports/limiter";
import type { SystemCtx } from "@/lib/domain/context";
import { PAIR_INTERVAL_SECONDS, pairKey } from "./pacing";
import type { SendTarget } from "./provider-send";

const LIMITER_DOWN_RETRY_MS = 2_000;

/**
 * docs/spec/decisions.md: internal sends (inbox, automations, workers) wait in the queue instead of getting a
 * 429. Such a message's provider job takes the pair slot when it is about to run. Returns null when
 * the job may send now, else how long to wait: until the slot frees, or a little while when the
 * limiter is unreachable (never an unpaced send). The job then puts itself back for that moment.
 */
export async function pairSlotWait(ctx: SystemCtx, target: SendTarget | null): Promise<number | null> {
  const { message, channel } = target ?? {};
  if (!message || !channel || message.status !== "queued" || !message.recipient) return null; // nothing to pace: the send step decides.
  try {
    const hit = await ctx.ports.limiter.hit("strict", pairKey(channel.platform, channel.id, message.recipient), 1, PAIR_INTERVAL_SECONDS);
    if (hit.allowed) return null;
    return Math.max(100, hit.msBeforeReset);
  } catch (error) {
    if (!LimiterUnavailable.is(error)) throw error;
    return LIMITER_DOWN_RETRY_MS;
  }
}
