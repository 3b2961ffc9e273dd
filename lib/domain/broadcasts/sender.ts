/**
 * The broadcasts.run job: one slice (≤ 20 s) of sending, then a continuation job for the same run
 * generation. Batches are streamed from the database (claim.ts), so memory does not grow with the
 * recipient count; sends are paced to the channel's throughput (pacer.ts), each takes its pair slot
 * first (a recipient messaged < 6 s ago waits for a later batch: never a 429), and throughput refusals
 * (130429) slow the run down and, when they pile up, pause it.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { broadcastRecipients, broadcasts, channels, messages, templates } from "@/lib/db/schema";
import type { Ctx, SystemCtx } from "@/lib/domain/context";
import { projectCtx } from "@/lib/domain/automations/runs";
import { channelThroughput } from "@/lib/domain/channels/throughput";
import { providerChannelOf } from "@/lib/domain/messages/provider-send";
import { PAIR_INTERVAL_SECONDS, pairKey } from "@/lib/domain/messages/pacing";
import { applyStatus } from "@/lib/domain/messages/status";
import { LimiterUnavailable } from "@/lib/ports/limiter";
import { ProviderError, isThroughputError } from "@/lib/ports/provider/types";
import { claimBatch, releaseBatch, type Claim, type Outgoing } from "./claim";
import { Pacer } from "./pacer";
import { pauseFor, settleIfDone, startScheduled, whyPause } from "./run-state";
import { BROADCAST_RUN_JOB, type BroadcastRunJob } from "./run-job-name";

const SLICE_MS = 20_000;
const FLUSH_EVERY = 50;
/** Per recipient: throughput or transient refusals before it is marked failed. */
export const MAX_ATTEMPTS = 8;
/** Throughput refusals in one slice that pause the run (the provider keeps saying no). */
export const REFUSALS_TO_PAUSE = 200;

export async function runBroadcastSlice(system: SystemCtx, job: BroadcastRunJob): Promise<void> {
  const loaded = await load(system, job);
  if (!loaded) return;
  const { ctx, claim } = loaded;
  const reason = whyPause(claim);
  if (reason) return pauseFor(ctx.db, claim.broadcast, reason, ctx.ports.clock.now());
  const rate = channelThroughput(claim.channel);
  const pacer = new Pacer(Math.max(1, Math.floor(rate * 0.97)));
  const batchSize = Math.min(250, Math.max(20, Math.ceil(rate / 5)));
  const until = Date.now() + SLICE_MS;
  const claimNext = (sending: Outgoing[], retries: boolean) => claimBatch({ ...ctx, now: ctx.ports.clock.now() }, claim, batchSize, { sending, retries });
  let refusals = 0;
  // A slice starts by looking for what an earlier one queued and never handed over; after that, only
  // when a batch left some behind (pair slots, refusals).
  let retryDue = true;
  let batch = await claimNext([], true);
  for (;;) {
    if (batch.length === 0) return void (await settleIfDone(ctx.db, claim.broadcast, ctx.ports.clock.now()));
    // The next batch is claimed while this one sends, so the pacer never waits for the database. It
    // is held back from the provider until this batch is done; a run that stops here gives it back.
    const next = claimNext(batch, retryDue);
    const outcome = await sendBatch(ctx, claim, batch, pacer).catch(async (error: unknown) => {
      await next.then((held) => releaseBatch(ctx, claim.broadcast.id, held)).catch(() => {});
      throw error;
    });
    refusals += outcome.refusals;
    const stop = refusals >= REFUSALS_TO_PAUSE ? "pause" : !(await stillCurrent(ctx, job)) ? "stale" : Date.now() >= until ? "slice" : null;
    if (stop === "pause") await pauseFor(ctx.db, claim.broadcast, "throughput_errors", ctx.ports.clock.now());
    if (stop === "pause" || stop === "stale") return releaseBatch(ctx, claim.broadcast.id, await next);
    // Out of time: the claimed batch stays queued; the continuation's first claim picks it up.
    if (stop === "slice") return void (await next, await ctx.ports.queue.send(BROADCAST_RUN_JOB, job));
    retryDue = outcome.sent < batch.length;
    batch = await next;
    // Nothing new: what the last batch could not send (pair slots, refusals) is claimable again now.
    if (batch.length === 0 && retryDue) batch = await claimNext([], true);
    if (outcome.sent === 0) await new Promise((resolve) => setTimeout(resolve, 500)); // only pair-paced recipients left for now
  }
}

async function load(system: SystemCtx, job: BroadcastRunJob): Promise<{ ctx: Ctx; claim: Claim } | null> {
  const now = system.ports.clock.now();
  let [broadcast] = await system.db.select().from(broadcasts).where(eq(broadcasts.id, job.broadcast_id));
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
    .where(eq(broadcasts.id, job.broadcast_id));
  return row?.status === "SENDING" && row.generation === job.generation;
}

interface BatchOutcome {
  sent: number;
  refusals: number;
}

/** Sends one batch with a bounded number in flight; accepted ids are written in bulk as they land. */
async function sendBatch(ctx: Ctx, claim: Claim, batch: Outgoing[], pacer: Pacer): Promise<BatchOutcome> {
  const provider = providerChannelOf(claim.channel, ctx.settings);
  const accepted: { messageId: string; pid: string }[] = [];
  const retry: string[] = [];
  const outcome: BatchOutcome = { sent: 0, refusals: 0 };
  const inFlight = new Set<Promise<void>>();
  const limit = Math.max(4, Math.ceil(pacer.rate / 20));
  // Pair slots are taken a chunk at a time (one limiter call), each at most a chunk's sending
  // (a twentieth of a second at the paced rate) before its send.
  for (let start = 0; start < batch.length; start += limit) {
    const chunk = batch.slice(start, start + limit);
    const slots = await pairSlots(ctx, claim, chunk);
    for (const [i, item] of chunk.entries()) {
      if (!slots[i]) continue;
      await pacer.take();
      const p = sendOne(ctx, claim, provider, item, pacer, { accepted, retry, outcome }).finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= limit) await Promise.race(inFlight);
      // Written as they land, so most status callbacks find their message on the first try.
      if (accepted.length >= FLUSH_EVERY) await writeAccepted(ctx, accepted.splice(0));
    }
  }
  await Promise.all(inFlight);
  await writeAccepted(ctx, accepted);
  if (retry.length > 0) {
    await ctx.db
      .update(broadcastRecipients)
      .set({ attempts: sql`${broadcastRecipients.attempts} + 1`, updatedAt: ctx.ports.clock.now() })
      .where(inArray(broadcastRecipients.id, retry));
  }
  return outcome;
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
  } catch (error) {
    if (!ProviderError.is(error)) throw error;
    if (isThroughputError(error)) {
      into.outcome.refusals++;
      await pacer.refused();
    }
    if (error.retryable && item.attempts + 1 < MAX_ATTEMPTS) {
      // Not sent, so the pair's slot is given back for the retry.
      await ctx.ports.limiter.refund("strict", pairKey(claim.channel.platform, claim.channel.id, item.to), 1, PAIR_INTERVAL_SECONDS).catch(() => {});
      return void into.retry.push(item.recipientId);
    }
    const [message] = await ctx.db.select().from(messages).where(eq(messages.id, item.messageId));
    if (message) await applyStatus(ctx, message, { status: "failed", at: ctx.ports.clock.now(), failure: error.failure, recipientId: item.to });
  }
}

/** The provider's ids of accepted messages, in one statement (their status callbacks find them by it). */
async function writeAccepted(ctx: Ctx, accepted: { messageId: string; pid: string }[]): Promise<void> {
  if (accepted.length === 0) return;
  await ctx.db.execute(sql`
    update messages m set platform_message_id = v.pid, updated_at = ${ctx.ports.clock.now().toISOString()}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(accepted)}::jsonb) as v("messageId" text, pid text) where m.id = v."messageId" and m.platform_message_id is null`);
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
