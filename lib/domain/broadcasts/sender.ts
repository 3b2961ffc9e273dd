/**
 * The broadcasts.run job: one slice (≤ 20 s) of sending, then a continuation job for the same run
 * generation. Batches are streamed from the database (claim.ts), so memory does not grow with the
 * recipient count; sends are paced to the channel's throughput (pacer.ts), each takes its pair slot
 * first (a recipient messaged < 6 s ago waits for a later batch: never a 429), and throughput refusals
 * (130429) slow the run down and, when they pile up, pause it. A slice holds the run's lease while it
 * sends (lease.ts), and each recipient is marked dispatched before its send (attempts.ts): after a
 * crash the run is taken over within seconds and no recipient is sent twice.
 */
import { eq } from "drizzle-orm";
import { broadcasts, channels, messages, templates } from "@/lib/db/schema";
import type { Ctx, SystemCtx } from "@/lib/domain/context";
import { projectCtx } from "@/lib/domain/automations/runs";
import { channelThroughput } from "@/lib/domain/channels/throughput";
import { providerChannelOf } from "@/lib/domain/messages/provider-send";
import { PAIR_INTERVAL_SECONDS, pairKey } from "@/lib/domain/messages/pacing";
import { applyStatus } from "@/lib/domain/messages/status";
import { setProviderIds } from "@/lib/domain/messages/row-writes";
import { LimiterUnavailable } from "@/lib/ports/limiter";
import { ProviderError, isThroughputError } from "@/lib/ports/provider/types";
import { answerLost, markDispatched, refusedForNow, settleUnknown, unknownOutcome } from "./attempts";
import { claimBatch, releaseBatch, type Claim, type Outgoing } from "./claim";
import { newLeaseHolder, releaseLease, startHeartbeat, takeLease, type Heartbeat } from "./lease";
import { Pacer } from "./pacer";
import { pauseFor, settleIfDone, startScheduled, whyPause } from "./run-state";
import { BROADCAST_RUN_JOB, type BroadcastRunJob } from "./run-job-name";

const SLICE_MS = 20_000;
const FLUSH_EVERY = 10;
/** Per recipient: throughput or transient refusals before it is marked failed. */
const MAX_ATTEMPTS = 8;
/** Throughput refusals in one slice that pause the run (the provider keeps saying no). */
const REFUSALS_TO_PAUSE = 200;

export async function runBroadcastSlice(system: SystemCtx, job: BroadcastRunJob): Promise<void> {
  const loaded = await load(system, job);
  if (!loaded) return;
  const { ctx, claim } = loaded;
  const reason = whyPause(claim);
  if (reason) return pauseFor(ctx.db, claim.broadcast, reason, ctx.ports.clock.now());
  const holder = newLeaseHolder();
  // Another slice of this run is alive and sending: it goes on, and hands the run on itself.
  if (!(await takeLease(ctx.db, job, holder, ctx.ports.clock.now()))) return;
  const heartbeat = startHeartbeat(ctx.db, job, holder, ctx.ports.clock);
  try {
    // No live sender waits for these answers any more (the lease was free or had run out).
    await settleUnknown(ctx, claim.broadcast.id);
    const end = await sendSlice(ctx, claim, job, heartbeat);
    if (end === "continue") await handOver(ctx, job, holder);
    else await releaseLease(ctx.db, job, holder, ctx.ports.clock.now());
  } catch (error) {
    // What this slice handed over has answered (sendSlice waits for it), so a retry may start at once.
    await releaseLease(ctx.db, job, holder, ctx.ports.clock.now()).catch(() => {});
    throw error;
  } finally {
    heartbeat.stop();
  }
}

/** The continuation job and the lease given back, together: a worker dying between the two leaves neither half. */
async function handOver(ctx: Ctx, job: BroadcastRunJob, holder: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await releaseLease(tx, job, holder, ctx.ports.clock.now());
    await ctx.ports.queue.send(BROADCAST_RUN_JOB, job, { tx });
  });
}

/**
 * The slice's sending, ≤ 20 s: "continue" when time is up with work left, "done" when there is
 * nothing left to send (settled, or stopped: paused, cancelled, taken over).
 */
async function sendSlice(ctx: Ctx, claim: Claim, job: BroadcastRunJob, heartbeat: Heartbeat): Promise<"continue" | "done"> {
  const rate = channelThroughput(claim.channel);
  const clock = ctx.ports.clock;
  const pacer = new Pacer(Math.max(1, Math.floor(rate * 0.97)), () => clock.monotonicMs());
  const batchSize = Math.min(250, Math.max(20, Math.ceil(rate / 5)));
  const until = clock.monotonicMs() + SLICE_MS;
  // Claims follow one another (never two at once), each starting after the last pending recipient taken.
  let cursor: string | null = null;
  const claimNext = async (sending: Outgoing[], retries: boolean) => {
    const claimed = await claimBatch({ ...ctx, now: ctx.ports.clock.now() }, claim, batchSize, { sending, retries, after: cursor });
    cursor = claimed.cursor;
    return claimed.outgoing;
  };
  const flight = new Flight(Math.max(4, Math.ceil(pacer.rate / 20)));
  let refusals = 0;
  // A slice starts by looking for what an earlier one queued and never handed over; after that, only
  // when a batch left some behind (pair slots, refusals).
  let retryDue = true;
  let previous: Dispatched | null = null;
  const finish = async (dispatched: Dispatched) => {
    const outcome = await dispatched.settled;
    refusals += outcome.refusals;
    retryDue = outcome.sent < dispatched.batch.length;
    return outcome;
  };
  let batch = await claimNext([], true);
  for (;;) {
    if (batch.length === 0) {
      // Nothing new: once the last batch has finished, what it could not send is claimable again.
      const last = previous && (await finish(previous));
      previous = null;
      if (!last || !retryDue) {
        // Not settled (a recipient made pending again below the cursor, say): the lease given back
        // runs out and the watchdog hands the run to a new slice, whose claims start from the top.
        await settleIfDone(ctx.db, claim.broadcast, ctx.ports.clock.now());
        return "done";
      }
      if (last.sent === 0) await new Promise((resolve) => setTimeout(resolve, 500)); // only pair-paced recipients left for now
      if (clock.monotonicMs() >= until) return "continue";
      batch = await claimNext([], true);
      continue;
    }
    // The next batch is claimed while this one sends, so the pacer never waits for the database, and
    // this batch goes out while the last one's answers come back, so it never waits for their tail.
    // A run that stops gives the claimed batch back.
    const inHand = [...(previous?.batch ?? []), ...batch];
    const next = handled(claimNext(inHand, retryDue));
    let dispatched: Dispatched | null = null;
    try {
      dispatched = await dispatchBatch(ctx, claim, batch, pacer, flight);
      if (previous) await finish(previous);
    } catch (error) {
      // What was handed to the provider answers first, so every answer that came is recorded.
      await Promise.allSettled([previous?.settled, dispatched?.settled]);
      await next.then((held) => releaseBatch(ctx, claim.broadcast.id, held)).catch(() => {});
      throw error;
    }
    previous = dispatched;
    const current = !heartbeat.lost && (await stillCurrent(ctx, job));
    const stop = refusals >= REFUSALS_TO_PAUSE ? "pause" : !current ? "stale" : clock.monotonicMs() >= until ? "slice" : null;
    if (stop) {
      await finish(dispatched);
      if (stop === "pause") await pauseFor(ctx.db, claim.broadcast, "throughput_errors", ctx.ports.clock.now());
      if (stop === "pause" || stop === "stale") return releaseBatch(ctx, claim.broadcast.id, await next).then(() => "done");
      // Out of time: the claimed batch stays queued; the continuation's first claim picks it up.
      await next;
      return "continue";
    }
    batch = await next;
  }
}

async function load(system: SystemCtx, job: BroadcastRunJob): Promise<{ ctx: Ctx; claim: Claim } | null> {
  const now = system.ports.clock.now();
  let [broadcast] = await system.db.select().from(broadcasts).where(eq(broadcasts.id, job.broadcastId));
  if (!broadcast || broadcast.runGeneration !== job.generation) return null;
  if (broadcast.status === "SCHEDULED") broadcast = (await startScheduled(system.db, broadcast, now)) ?? undefined;
  if (!broadcast || broadcast.status !== "SENDING") return null;
  const ctx = await projectCtx({ ...system, now }, broadcast.projectId);
  const [channel] = await system.db.select().from(channels).where(eq(channels.id, broadcast.channelId));
  const [template] = await system.db.select().from(templates).where(eq(templates.id, broadcast.templateId));
  if (!ctx || !channel) return null;
  if (!template) {
    await pauseFor(system.db, broadcast, "template_not_approved", now);
    return null;
  }
  return { ctx, claim: { broadcast, channel, template } };
}

async function stillCurrent(ctx: Ctx, job: BroadcastRunJob): Promise<boolean> {
  const [row] = await ctx.db
    .select({ status: broadcasts.status, generation: broadcasts.runGeneration })
    .from(broadcasts)
    .where(eq(broadcasts.id, job.broadcastId));
  return row?.status === "SENDING" && row.generation === job.generation;
}

interface BatchOutcome {
  sent: number;
  refusals: number;
}

/** A batch handed to the provider: its sends may still be answering; `settled` once they all have and the results are written. */
interface Dispatched {
  batch: Outgoing[];
  settled: Promise<BatchOutcome>;
}

/** Sends in flight across batches, at most `limit` at once. */
class Flight {
  private readonly sends = new Set<Promise<void>>();
  constructor(readonly limit: number) {}

  /** Tracks a send; resolves when there is room for the next one: true when that meant waiting for an answer. */
  async add(send: Promise<void>): Promise<boolean> {
    const tracked = send.finally(() => this.sends.delete(tracked));
    this.sends.add(handled(tracked));
    let waited = false;
    while (this.sends.size >= this.limit) {
      waited = true;
      await Promise.race(this.sends).catch(() => {});
    }
    return waited;
  }
}

/**
 * Hands one batch to the provider, paced, and returns once every send has started. Pair slots are
 * taken a chunk at a time (one limiter call), the next chunk's while this one sends: each slot at most
 * two chunks (a tenth of a second at the paced rate) before its send, and the pacer never waits for
 * Redis. Each chunk is marked dispatched (committed) right before its sends start: what a crash leaves
 * dispatched without an answer is settled as outcome_unknown, never sent again (attempts.ts). Accepted
 * ids are written as they land, so most status callbacks find their message on the first try; nothing
 * here waits for a write. If it fails part-way, what it started still answers and is written first.
 */
async function dispatchBatch(ctx: Ctx, claim: Claim, batch: Outgoing[], pacer: Pacer, flight: Flight): Promise<Dispatched> {
  const provider = providerChannelOf(claim.channel, ctx.settings);
  const accepted: { messageId: string; pid: string }[] = [];
  const retry: string[] = [];
  const outcome: BatchOutcome = { sent: 0, refusals: 0 };
  const sends: Promise<void>[] = [];
  const writes: Promise<void>[] = [];
  const chunks: Outgoing[][] = [];
  for (let start = 0; start < batch.length; start += flight.limit) chunks.push(batch.slice(start, start + flight.limit));
  let failure: { error: unknown } | null = null;
  try {
    let slots = handled(pairSlots(ctx, claim, chunks[0] ?? []));
    for (const [c, chunk] of chunks.entries()) {
      const allowed = await slots;
      if (c + 1 < chunks.length) slots = handled(pairSlots(ctx, claim, chunks[c + 1]!));
      const ready = await markDispatched(
        ctx.db,
        chunk.filter((_, i) => allowed[i]),
        ctx.ports.clock.now(),
      );
      for (const item of ready) {
        await pacer.take();
        const send = sendOne(ctx, claim, provider, item, pacer, { accepted, retry, outcome }).then(() => {
          if (accepted.length >= FLUSH_EVERY) writes.push(handled(writeAccepted(ctx, accepted.splice(0))));
        });
        sends.push(handled(send));
        // A provider slow to answer is not one to make up lost time with: a burst into its queue
        // lands in one of its seconds all at once when it catches up (refusals, in the bench).
        if (await flight.add(send)) pacer.forgo();
      }
    }
  } catch (error) {
    failure = { error };
  }
  const settled = (async () => {
    const answers = await Promise.allSettled(sends);
    writes.push(writeAccepted(ctx, accepted));
    await Promise.all(writes);
    await refusedForNow(ctx.db, retry, ctx.ports.clock.now());
    // A send that threw something other than the provider's answer stays dispatched: its outcome is unknown.
    const thrown = answers.find((answer) => answer.status === "rejected");
    if (thrown) throw thrown.reason;
    return outcome;
  })();
  if (failure) {
    await settled.catch(() => {});
    throw failure.error;
  }
  return { batch, settled: handled(settled) };
}

async function sendOne(
  ctx: Ctx,
  claim: Claim,
  provider: ReturnType<typeof providerChannelOf>,
  item: Outgoing,
  pacer: Pacer,
  into: { accepted: { messageId: string; pid: string }[]; retry: string[]; outcome: BatchOutcome },
): Promise<void> {
  try {
    const { platformMessageId } = await ctx.ports.provider.send(provider, item.to, { content: item.content });
    into.accepted.push({ messageId: item.messageId, pid: platformMessageId });
    into.outcome.sent++;
    ctx.ports.metrics.broadcastRecipient("accepted");
  } catch (error) {
    if (!ProviderError.is(error)) throw error;
    if (isThroughputError(error)) {
      into.outcome.refusals++;
      await pacer.refused();
    }
    // No answer in time: the provider may have sent it, so it is not tried again (and keeps its pair slot).
    const lost = answerLost(error);
    if (!lost && error.retryable && item.attempts + 1 < MAX_ATTEMPTS) {
      // Not sent, so the pair's slot is given back for the retry.
      await ctx.ports.limiter.refund("strict", pairKey(claim.channel.platform, claim.channel.id, item.to), 1, PAIR_INTERVAL_SECONDS).catch(() => {});
      ctx.ports.metrics.broadcastRecipient("retried");
      return void into.retry.push(item.recipientId);
    }
    const at = ctx.ports.clock.now();
    const failure = lost ? unknownOutcome(`The provider did not answer in time (${error.failure.message}).`, at) : error.failure;
    const [message] = await ctx.db.select().from(messages).where(eq(messages.id, item.messageId));
    if (message) await applyStatus(ctx, message, { status: "failed", at, failure, recipientId: item.to });
    ctx.ports.metrics.broadcastRecipient("failed");
  }
}

/** A promise awaited later: marked handled now, so a failure before then is not an unhandled rejection (it still throws where awaited). */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/** The provider's ids of accepted messages, in one statement (their status callbacks find them by it); a message keeps the first id it got. */
async function writeAccepted(ctx: Ctx, accepted: { messageId: string; pid: string }[]): Promise<void> {
  await setProviderIds(ctx.db, accepted, ctx.ports.clock.now());
}

/** The pairs' slots (one message per 6 s per recipient); an unreachable limiter means "not now", never an unpaced send. */
async function pairSlots(ctx: Ctx, claim: Claim, items: Outgoing[]): Promise<boolean[]> {
  try {
    return await ctx.ports.limiter.hitMany(
      "strict",
      items.map((item) => pairKey(claim.channel.platform, claim.channel.id, item.to)),
      1,
      PAIR_INTERVAL_SECONDS,
    );
  } catch (error) {
    if (LimiterUnavailable.is(error)) return items.map(() => false);
    throw error;
  }
}
