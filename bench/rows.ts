/**
 * The two rows `npm run bench` measures in either shape, 1 web + 1 worker (bench/run.ts) and 2 web +
 * 2 workers (bench/cluster.ts), with the load spread over the shape's web processes (round robin per
 * request): POST /api/v1/messages (closed loop) and inbound → webhook (open loop at a fixed rate).
 * Each row also reports the CPU each message cost per role (CPU seconds from /proc over its windows,
 * divided by its messages) and checks that nothing broke: every accepted POST stored once and accepted
 * once by the provider, every inbound message stored once and delivered once to the receiver.
 */
import { performance } from "node:perf_hooks";
import type { Sql } from "postgres";
import type { BenchConfig } from "./env";
import { openLoop, sleep, waitUntil, type ClosedLoopResult, type HttpRequest } from "./load";
import { CpuMeter } from "./procs";
import { SANDBOX_CHANNEL } from "./provider-inbound";
import type { BenchReceiver } from "./receiver";
import type { CpuPerMessage, InboundRow, LoopResult, MessagesRow, PhaseFn } from "./report";
import { round, summarize, type LatencySummary } from "./stats";
import type { WebPauses } from "./web-pauses";

export interface Shape {
  /** Appended to the phase names: "" for 1 + 1 (the names of every earlier run). */
  suffix: string;
  /** In the Idempotency-Keys and inbound tokens, so each row's messages are its own: "1x1", "2x2". */
  tag: string;
  /** The web processes' base URLs; request i goes to bases[i % length]. */
  bases: string[];
  startWorkers(): Promise<void>;
  stopWorkers(): Promise<void>;
}

export interface RowContext {
  config: BenchConfig;
  runId: string;
  sql: Sql;
  auth: Record<string, string>;
  /** The project the testers joined (the rows' messages are its). */
  projectId: string;
  /** The testers' conversations, which POST /messages cycles through (pair pacing: none again within 6.5 s). */
  conversations: string[];
  floorRps: number | null;
  /** bench/run.ts's closed loop: a warm-up (its accepted requests in warmupOk), then the measured run as a phase. */
  measure(name: string, make: () => HttpRequest | null, okStatus: number, warmupMax?: number): Promise<MeasuredLoop>;
  /** What the database's sessions do while `run` runs (diagnostics). */
  sampleActivity<T>(run: () => Promise<T>): Promise<{ result: T; activity: { what: string; share: number }[] }>;
  /** CPU seconds so far per role (CpuMeter.snapshot). */
  cpu(): Record<string, number>;
  /** The receiver of the project's webhook, created with the token prefix `lat-${runId}-`. */
  fast: BenchReceiver;
  /** The customer message `token` from the i-th latency tester, as the provider delivers it, to `base`. */
  sendInbound(base: string, token: string, i: number): Promise<void>;
  /** How many sends the provider (simulator) has accepted from the sandbox number so far. */
  providerAccepted(): Promise<number>;
  log(line: string): void;
  phase: PhaseFn;
}

/** A closed-loop phase as `measure` returns it: the load's result, its warm-up, and the web's pauses over the measured run. */
export type MeasuredLoop = ClosedLoopResult & { warmupOk: number; webPauses: WebPauses | null };

export function loopRow(r: ClosedLoopResult & { webPauses?: WebPauses | null }, floorRps: number | null): LoopResult {
  return {
    rps: round(r.rps, 0)!,
    p50Ms: round(r.latency.p50, 1),
    p99Ms: round(r.latency.p99, 1),
    ratioToFloor: floorRps ? round(r.rps / floorRps, 2) : null,
    requests: r.requests,
    ok: r.ok,
    statuses: r.statuses,
    seconds: round(r.elapsedMs / 1000, 1)!,
    firstError: r.firstError,
    timeline: r.timeline,
    webPauses: r.webPauses ?? null,
    generator: r.generator,
  };
}

const finite = (v: number | null) => (v !== null && Number.isFinite(v) ? round(v, 0) : null);
const latencyRow = (s: LatencySummary) => ({ p50Ms: finite(s.p50), p99Ms: finite(s.p99), maxMs: finite(s.max) });

const perMessage = CpuMeter.msPerOperation;

const roleLine = (cpu: CpuPerMessage) => `web ${cpu.web ?? 0} · worker ${cpu.worker ?? 0} · postgres ${cpu.postgres ?? 0}`;

/** Pair pacing is 1 message per 6 s per recipient: a conversation is sent to again after this long. */
const REUSE_AFTER_MS = 6_500;

/**
 * POST /messages, timed as long as the floor with the workers stopped so they do not share the cores
 * with the web processes while the API is timed; then the workers start, the provider jobs are watched
 * and their status callbacks (three per message) get three times as long to settle.
 */
export async function postMessagesRow(ctx: RowContext, shape: Shape): Promise<MessagesRow> {
  const { sql, config } = ctx;
  const keyPrefix = `bench-${ctx.runId}-${shape.tag}-`;
  const counts = async () => {
    const [row] = await sql<{ queued: string; sent: string; failed: string; unsettled: string; stored: string; keys: string }[]>`
      select count(*) filter (where status = 'queued' and platform_message_id is null) as queued,
             count(*) filter (where platform_message_id is not null) as sent,
             count(*) filter (where status = 'failed') as failed,
             count(*) filter (where status in ('queued', 'sent', 'delivered')) as unsettled,
             count(*) as stored,
             count(distinct idempotency_key) as keys
      from messages where project_id = ${ctx.projectId} and direction = 'outbound' and idempotency_key like ${`${keyPrefix}%`}`;
    return {
      queued: Number(row!.queued),
      sent: Number(row!.sent),
      failed: Number(row!.failed),
      unsettled: Number(row!.unsettled),
      stored: Number(row!.stored),
      keys: Number(row!.keys),
    };
  };
  await shape.stopWorkers();
  const providerBefore = await ctx.providerAccepted();
  const started = performance.now();
  const sending0 = ctx.cpu();
  let next = 0;
  const usedAt = new Float64Array(ctx.conversations.length).fill(-Infinity);
  const { result: post, activity } = await ctx.sampleActivity(() =>
    ctx.measure(
      `POST /api/v1/messages${shape.suffix}`,
      () => {
        const i = next++;
        const slot = i % ctx.conversations.length;
        // Timed as long as the floor (same warm-up, same duration), so both p99s cover as many of the web's
        // periodic full collections: the conversations come round again, each no sooner than pair pacing allows.
        const now = performance.now();
        if (now - usedAt[slot]! < REUSE_AFTER_MS) return null;
        usedAt[slot] = now;
        const conversation = ctx.conversations[slot]!;
        return {
          method: "POST",
          url: `${shape.bases[i % shape.bases.length]}/api/v1/messages`,
          headers: { ...ctx.auth, "content-type": "application/json", "idempotency-key": `${keyPrefix}${i}` },
          body: JSON.stringify({ channel_id: SANDBOX_CHANNEL, conversation_id: conversation, text: `bench ${shape.tag} ${i}` }),
        };
      },
      200,
    ),
  );
  const sending1 = ctx.cpu();
  if (post.elapsedMs < config.durationS * 900)
    ctx.log(`POST /messages${shape.suffix}: the testers ran out after ${(post.elapsedMs / 1000).toFixed(1)} s at this rate: raise BENCH_TESTERS`);
  ctx.log(
    `database sessions during POST /messages${shape.suffix} (average busy sessions per sample):\n${activity.map((a) => `    ${a.share.toFixed(2)}  ${a.what}`).join("\n")}`,
  );
  await shape.startWorkers();
  // From here the workers' CPU counts (not their start): the provider jobs run through the simulator.
  const after0 = ctx.cpu();
  // BENCH_WAIT_S per 3,000 messages: a fast morning sends twice as many as a slow afternoon in the same 10 s.
  const waitMs = config.waitS * 1000 * Math.max(1, (post.warmupOk + post.ok) / 3000);
  const providerDone = await waitUntil(async () => ((await counts()).queued === 0 ? true : null), waitMs, 500);
  const c = await counts();
  const provider = {
    accepted: c.stored,
    sent: c.sent,
    failed: c.failed,
    stillQueued: c.queued,
    seconds: round((performance.now() - started) / 1000)!,
    drained: providerDone !== null,
  };
  ctx.log(`provider jobs: ${provider.sent} sent, ${provider.failed} failed, ${provider.stillQueued} still queued ${provider.seconds} s after the POSTs began`);
  // Each sent message brings three status callbacks (sent, delivered, read) to ingest: let them settle
  // (bounded) so the next phase is not timed against this one's leftovers. 3,000 sends are 9,000
  // callbacks: on a slow day they outlast BENCH_WAIT_S, and the inbound phase then measured the
  // drain (p50 in seconds) and the delivery backlog grew under the count. So up to three times that.
  const settled = await waitUntil(async () => ((await counts()).unsettled === 0 ? true : null), waitMs * 3, 500);
  const after1 = ctx.cpu();
  ctx.log(`status callbacks ${settled ? "settled" : "still arriving"} ${((performance.now() - started) / 1000).toFixed(1)} s after the POSTs began`);

  const end = await counts();
  const providerAccepted = (await ctx.providerAccepted()) - providerBefore;
  const answered = post.warmupOk + post.ok;
  const check = {
    answered,
    stored: end.stored,
    storedTwice: end.stored - end.keys,
    handedToProvider: end.sent,
    providerAccepted,
    ok: end.keys === answered && end.stored === end.keys && end.sent === end.stored && providerAccepted === end.stored,
  };
  const cpuMsPerMessage = perMessage(
    [
      [sending0, sending1],
      [after0, after1],
    ],
    end.stored,
  );
  const cpuMsPerMessageSending = perMessage([[sending0, sending1]], end.stored);
  ctx.log(
    `POST /messages${shape.suffix}: ${end.stored} stored of ${answered} accepted (${check.storedTwice} twice), ${end.sent} sent, the provider accepted ${providerAccepted}: ${check.ok ? "OK" : "BROKEN"}; CPU ms per message ${roleLine(cpuMsPerMessage)} (POST alone: ${roleLine(cpuMsPerMessageSending)})`,
  );
  return { ...loopRow(post, ctx.floorRps), provider, dbActivity: activity, cpuMsPerMessage, cpuMsPerMessageSending, check };
}

/**
 * Inbound → webhook: customer messages at BENCH_INBOUND_RATE for BENCH_INBOUND_S after as long an
 * unmeasured warm-up, each text a unique token matched to its `message.received` delivery. Latency
 * runs from the provider's POST to the receiver; anything not received within BENCH_WAIT_S counts as
 * infinitely late. `since` is a moment before the measured messages (the delivery phases replay them).
 */
export async function inboundRow(ctx: RowContext, shape: Shape): Promise<{ row: InboundRow; since: Date }> {
  const { config, fast } = ctx;
  const count = config.inboundRate * config.inboundSeconds;
  const MAX_IN_FLIGHT = 256;
  const send = (token: string, i: number) => ctx.sendInbound(shape.bases[i % shape.bases.length]!, token, i);
  // Warm-up, as the closed-loop phases have one: the worker restarted for the POST phase has not run
  // this path yet (cold code, statements not yet prepared on its connections). Not measured, and
  // not in the replayed backlog of the delivery phases.
  if (config.warmupS > 0) {
    await openLoop({
      ratePerSecond: config.inboundRate,
      count: config.inboundRate * config.warmupS,
      maxDurationMs: config.warmupS * 1000 + 2000,
      maxInFlight: MAX_IN_FLIGHT,
      fire: (i) => send(`warm-${ctx.runId}-${shape.tag}-${i}`, i),
    });
    await waitUntil(() => (fast.arrivals.length >= config.inboundRate * config.warmupS ? true : null), config.waitS * 1000, 100);
  }
  const since = new Date(Date.now() - 1000);
  await sleep(1100);
  fast.reset();
  ctx.log(
    `inbound${shape.suffix}: ${count} customer messages at ${config.inboundRate}/s through ${config.inboundVia === "simulator" ? "the simulator's customer endpoint" : "signed provider webhooks"} (open loop, at most ${MAX_IN_FLIGHT} unanswered) …`,
  );
  const sentAt = new Map<string, number>();
  const cpu0 = ctx.cpu();
  const open = await ctx.phase(`inbound → webhook${shape.suffix}`, () =>
    openLoop({
      ratePerSecond: config.inboundRate,
      count,
      maxDurationMs: config.inboundSeconds * 1000 + 2000,
      maxInFlight: MAX_IN_FLIGHT,
      fire: (i) => {
        const token = `lat-${ctx.runId}-${shape.tag}-${i}`;
        sentAt.set(token, Date.now());
        return send(token, i);
      },
    }),
  );
  // A send our endpoint refused is never delivered: wait for the others (bounded).
  const accepted = sentAt.size - open.failed;
  const received = () => {
    let n = 0;
    for (const token of sentAt.keys()) if (fast.tokens.has(token)) n++;
    return n;
  };
  await waitUntil(() => (received() >= accepted ? true : null), config.waitS * 1000, 100);
  const cpu1 = ctx.cpu();
  // Every message sent counts: one that never reached the receiver within the bound is +infinity.
  const latencies: number[] = [];
  for (const [token, sent] of sentAt) {
    const at = fast.tokens.get(token);
    latencies.push(at === undefined ? Number.POSITIVE_INFINITY : at - sent);
  }
  const summary = summarize(latencies);
  const delivered = received();
  const missing = sentAt.size - delivered;
  ctx.log(
    `inbound → webhook${shape.suffix}: p50 ${summary.p50} ms, p99 ${summary.p99} ms; ${delivered}/${sentAt.size} received within ${config.waitS} s, ${open.dropped} not sent (in-flight cap), ${open.failed} refused${open.firstError ? ` (${open.firstError})` : ""}`,
  );

  let deliveredTwice = 0;
  for (const token of sentAt.keys()) deliveredTwice += Math.max(0, (fast.tokenCounts.get(token) ?? 0) - 1);
  const [stored] = await ctx.sql<{ n: string; distinct: string }[]>`
    select count(*) as n, count(distinct content) as distinct from messages
    where project_id = ${ctx.projectId} and direction = 'inbound' and content like ${`lat-${ctx.runId}-${shape.tag}-%`}`;
  const check = {
    accepted,
    stored: Number(stored!.n),
    storedTwice: Number(stored!.n) - Number(stored!.distinct),
    delivered,
    deliveredTwice,
    ok: Number(stored!.n) === accepted && Number(stored!.distinct) === accepted && delivered === accepted && deliveredTwice === 0,
  };
  const cpuMsPerMessage = perMessage([[cpu0, cpu1]], accepted);
  ctx.log(
    `inbound${shape.suffix}: ${check.stored} stored of ${accepted} accepted (${check.storedTwice} twice), ${delivered} delivered (${deliveredTwice} twice): ${check.ok ? "OK" : "BROKEN"}; CPU ms per message ${roleLine(cpuMsPerMessage)}`,
  );
  const row: InboundRow = {
    via: config.inboundVia,
    ...latencyRow(summary),
    sent: sentAt.size,
    received: sentAt.size - missing,
    dropped: open.dropped,
    refused: open.failed,
    waitS: config.waitS,
    ratePerSecond: config.inboundRate,
    seconds: round(open.elapsedMs / 1000)!,
    senderMaxLagMs: round(open.maxLagMs, 0)!,
    cpuMsPerMessage,
    check,
  };
  return { row, since };
}
