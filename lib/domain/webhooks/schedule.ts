/**
 * docs/spec/decisions.md "Webhook delivery": attempts at once, then after 10 s, 1 min, 5 min, 30 min, 2 h,
 * 6 h, 14 h (8 in all, about a day), each with ±10% jitter.
 */
const RETRY_DELAYS_SECONDS = [10, 60, 300, 1800, 7200, 21600, 50400] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
export const ATTEMPT_TIMEOUT_MS = 10_000;
export const RESPONSE_EXCERPT_BYTES = 2048;
/** An endpoint failing continuously this long is paused until its webhook is updated. */
export const PAUSE_AFTER_MS = 5 * 24 * 3600_000;

/** Delay before attempt `attemptsMade + 1`, jittered; null when no attempt is left. */
export function nextDelayMs(attemptsMade: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_SECONDS[attemptsMade - 1];
  if (base === undefined) return null;
  const jitter = 1 + (random() * 2 - 1) * 0.1;
  return Math.round(base * 1000 * jitter);
}
