import { SvcError } from "@/lib/errors";
import { LimiterUnavailable, type Limiter } from "@/lib/ports/limiter";

/** 1 new individual message per 6 s per (platform, sender channel, recipient). */
export const PAIR_INTERVAL_SECONDS = 6;

export function pairKey(platform: string, channelId: string, recipient: string): string {
  return `${platform}:${channelId}:${recipient}`;
}

/**
 * Takes the pair's slot or throws the spec's 429 message_pair_rate_limit. An unreachable limiter is a
 * 503 message_rate_limit_unavailable: never an unpaced send. Returns a release that gives the slot back
 * (for a send that is not written after all).
 *
 * Retry-After is the limiter's own count (HitResult.msBeforeReset), not a difference with the request's
 * ctx.now, which a test clock (or a skewed one) can move away from the limiter's time base.
 */
export async function takePairSlot(limiter: Limiter, channel: { id: string; platform: string }, recipient: string): Promise<() => Promise<void>> {
  const key = pairKey(channel.platform, channel.id, recipient);
  let hit;
  try {
    hit = await limiter.hit("strict", key, 1, PAIR_INTERVAL_SECONDS);
  } catch (error) {
    if (LimiterUnavailable.is(error)) {
      throw new SvcError(
        "message_rate_limit_unavailable",
        "The message rate limiter is unreachable, so this message was not sent (it is never sent unpaced). Retry with the same Idempotency-Key.",
        { queued: false, retryable: true, retry_after: 1 },
        { "Retry-After": "1" },
      );
    }
    throw error;
  }
  if (!hit.allowed) {
    const retryAfter = Math.max(1, Math.ceil(hit.msBeforeReset / 1000));
    throw new SvcError(
      "message_pair_rate_limit",
      `Only one new message per ${PAIR_INTERVAL_SECONDS} s may go to the same recipient from the same channel. Retry after ${retryAfter} s with the same Idempotency-Key.`,
      { channel_id: channel.id, channel_platform: channel.platform, queued: false, retryable: true, retry_after: retryAfter },
      {
        "RateLimit-Limit": "1",
        "RateLimit-Remaining": "0",
        "RateLimit-Reset": String(Math.ceil(hit.resetAt.getTime() / 1000)),
        "Retry-After": String(retryAfter),
        "X-Svc-Limit-Type": "message_pair_rate_limit",
      },
    );
  }
  return () => limiter.refund("strict", key, 1, PAIR_INTERVAL_SECONDS).catch(() => {});
}
