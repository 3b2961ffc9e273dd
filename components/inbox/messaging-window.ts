import type { Message } from "@/lib/client/inbox";

/** Spec: a free-form reply needs a customer message on the same channel within the last 24 hours. */
export const WINDOW_MS = 24 * 3600_000;

export type WindowState =
  | { kind: "open"; closesAt: number; lastInboundAt: number }
  | { kind: "closed"; lastInboundAt: number | null }
  /** No customer message among the loaded pages, but older pages exist that may hold a recent one. */
  | { kind: "unknown" };

/**
 * The conversation's reply window on `channelId`, from the loaded messages (oldest first). The API has
 * no window field, so this mirrors the server's rule: the newest inbound message on that channel.
 */
export function windowState(messages: Message[], channelId: string | null, hasOlder: boolean, now: number): WindowState {
  let lastInbound: number | null = null;
  for (const message of messages) {
    if (message.direction !== "inbound" || (channelId && message.channel_id !== channelId)) continue;
    const at = Date.parse(message.timestamp);
    if (!Number.isNaN(at) && (lastInbound === null || at > lastInbound)) lastInbound = at;
  }
  if (lastInbound === null) {
    const oldest = messages[0] ? Date.parse(messages[0].timestamp) : null;
    // Older pages can only hold older messages: once the oldest loaded is past 24 h, none of them counts.
    if (hasOlder && (oldest === null || now - oldest < WINDOW_MS)) return { kind: "unknown" };
    return { kind: "closed", lastInboundAt: null };
  }
  const closesAt = lastInbound + WINDOW_MS;
  return closesAt > now ? { kind: "open", closesAt, lastInboundAt: lastInbound } : { kind: "closed", lastInboundAt: lastInbound };
}
