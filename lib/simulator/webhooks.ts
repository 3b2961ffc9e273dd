import type { SimulatorContext } from "@/lib/simulator/context";
import { postWithRetries } from "@/lib/simulator/delivery";
import {
  messengerDelivery,
  messengerEcho,
  messengerEnvelope,
  messengerRead,
  platformAEnvelope,
  platformAStatusItem,
  type Envelope,
  type StatusName,
} from "@/lib/simulator/envelopes";
import type { BusinessMessage, StatusBatch } from "@/lib/simulator/state";

/** Status callbacks: the provider's webhooks about each accepted business message (delivery and retries: delivery.ts). */

function messengerStatusPayload(message: BusinessMessage, status: StatusName, at: Date): Envelope | null {
  const item =
    status === "sent"
      ? messengerEcho(message, at)
      : status === "delivered"
        ? message.platform === "PLATFORM_C"
          ? messengerDelivery(message, at)
          : null
        : messengerRead(message, at);
  return item ? messengerEnvelope(message.platform, message.sender_id, at, item) : null;
}

/**
 * PLATFORM_A statuses are coalesced the way the provider batches them (value.statuses[] holds many):
 * a sender's first status after a quiet STATUS_TICK_MS goes out at once; statuses due while its last
 * webhook is younger than that wait for the end of the tick and go out together, in the order they
 * became due, as one signed envelope (at most MAX_BATCH statuses; a fuller tick opens another). At
 * 1,000 sends a second that is ~20 webhooks a second for the number instead of 3,000, while a lone
 * send's statuses keep their own delays. Resolves as postWithRetries does.
 */
const STATUS_TICK_MS = 50;
const MAX_BATCH = 500;
const MAX_TRACKED_SENDERS = 10_000;

function postStatusCoalesced(ctx: SimulatorContext, message: BusinessMessage, status: StatusName, at: Date): Promise<boolean> {
  const { statusBatches } = ctx.state;
  const item = platformAStatusItem(ctx.state, message, status, at);
  const open = statusBatches.get(message.sender_id);
  if (open && open.items.length < MAX_BATCH) {
    open.items.push(item);
    return new Promise((settle) => open.settle.push(settle));
  }
  const batch: StatusBatch = { items: [item], settle: [] };
  statusBatches.set(message.sender_id, batch);
  const settled = new Promise<boolean>((settle) => batch.settle.push(settle));
  flushWhenDue(ctx, message.sender_id, batch).catch((error: unknown) => {
    ctx.log("status callbacks failed", error);
    for (const settle of batch.settle) settle(false);
  });
  return settled;
}

async function flushWhenDue(ctx: SimulatorContext, senderId: string, batch: StatusBatch): Promise<void> {
  const { statusBatches, lastStatusPostAt } = ctx.state;
  const last = lastStatusPostAt.get(senderId);
  const wait = last === undefined ? 0 : last + STATUS_TICK_MS - Date.now();
  let delivered = wait <= 0 || (await ctx.sleep(wait));
  // Closed from here on: statuses due later open the next batch.
  if (statusBatches.get(senderId) === batch) statusBatches.delete(senderId);
  if (delivered) {
    if (lastStatusPostAt.size >= MAX_TRACKED_SENDERS && !lastStatusPostAt.has(senderId)) lastStatusPostAt.clear();
    lastStatusPostAt.set(senderId, Date.now());
    const sender = ctx.state.senderInfo(senderId, "PLATFORM_A");
    const payload = platformAEnvelope(senderId, sender, { statuses: batch.items });
    const what = batch.items.length === 1 ? `${String(batch.items[0]!.status)} status` : `${batch.items.length} statuses`;
    delivered = await postWithRetries(ctx, "PLATFORM_A", payload, what);
  }
  for (const settle of batch.settle) settle(delivered);
}

/**
 * After an accepted send: sent, delivered, read, each at its delay after the send, strictly in that
 * order (each waits for the previous one's delivery; PLATFORM_A's are coalesced per sender, above).
 * PLATFORM_B/C: "sent" is the message echo, "delivered" a delivery receipt (PLATFORM_C only), "read" a
 * read receipt. Runs detached; never throws.
 */
export function scheduleStatusCallbacks(ctx: SimulatorContext, message: BusinessMessage): void {
  const steps: [StatusName, number][] = [
    ["sent", ctx.statusDelaysMs.sent],
    ["delivered", ctx.statusDelaysMs.delivered],
    ["read", ctx.statusDelaysMs.read],
  ];
  // A post in flight at a reset still ends (and says so): the epoch stops the chain there.
  const epoch = ctx.state.epoch;
  const run = async () => {
    let elapsed = 0;
    for (const [status, at] of steps) {
      if (!(await ctx.sleep(Math.max(0, at - elapsed))) || ctx.state.epoch !== epoch) return;
      elapsed = Math.max(elapsed, at);
      const now = ctx.now();
      ctx.state.setStatus(message.id, status);
      if (message.platform === "PLATFORM_A") {
        if (!(await postStatusCoalesced(ctx, message, status, now))) return;
        continue;
      }
      const payload = messengerStatusPayload(message, status, now);
      if (payload && !(await postWithRetries(ctx, message.platform, payload, `${status} status`))) return;
    }
  };
  run().catch((error: unknown) => ctx.log("status callbacks failed", error));
}
