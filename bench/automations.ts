/**
 * Native automations in `npm run bench` (issue 17): a customer's keyword → the automated reply
 * reaching the provider (the simulator), at a fixed rate of new conversations (open loop; each
 * message from another sandbox tester, so pair pacing never binds). The path measured is the
 * product's: provider webhook → ingest.process → automations.evaluate → automations.step →
 * provider.send → the simulator's Graph API. Latency = the simulator's `sent_at` of the reply minus
 * the moment the customer's message was sent (both wall clocks of this machine).
 */
import type { BenchProject } from "./project";
import { newId } from "@/lib/ids";
import { openLoop, pool, sendJson, waitUntil } from "./load";
import { round, summarize } from "./stats";
import type { PhaseFn } from "./report";

export interface AutomationsBenchResult {
  ratePerSecond: number;
  /** The unjudged traffic sent first (see AutomationsBenchOptions.warmupSeconds); absent on a measured row. */
  warmup?: true;
  sent: number;
  replied: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  dropped: number;
  refused: number;
  firstError: string | null;
}

interface AutomationsBenchOptions extends BenchProject {
  /** The simulator's sender id of the sandbox number (its customer inbox is keyed by it). */
  sandboxSender: string;
  /** Joined testers of the project (digits), one per message (each rate takes the next ones). */
  testers: string[];
  /** One row per rate, in this order. */
  rates: number[];
  seconds: number;
  /**
   * Seconds of the same traffic at the first rate before the judged rows, reported as their own row
   * and phase but not judged: the worker and web processes start shortly before this phase, and their
   * first seconds on the keyword path are JIT compilation (V8's optimising compiler was 12 to 17 % of
   * the worker's CPU then, `perf`) and new database sessions' caches, which a process pays once, not per
   * message. The POST and inbound rows have their warm-ups too.
   */
  warmupSeconds: number;
  waitS: number;
  runId: string;
  /** The customer's message as the provider delivers it. */
  sendInbound: (from: string, text: string) => Promise<void>;
  log: (line: string) => void;
  phase: PhaseFn;
  /** Samples pg_stat_activity while `run` runs (bench/run.ts): where the database's busy sessions are. */
  sampleActivity<T>(run: () => Promise<T>): Promise<{ result: T; activity: { what: string; share: number }[] }>;
}

const KEYWORD = "benchkw";

/** FLOWS routing and one KEYWORD automation; config-as-code writes such a row, the bench writes it directly. */
async function setUp(o: AutomationsBenchOptions): Promise<void> {
  const patched = await sendJson(o.agent, {
    method: "PATCH",
    url: `${o.base}/api/v1/projects/${o.projectId}`,
    headers: o.auth,
    json: { routing_mode: "FLOWS" },
  });
  if (patched.status !== 200) throw new Error(`PATCH routing_mode FLOWS: ${patched.status} ${JSON.stringify(patched.body)}`);
  const trigger = { type: "KEYWORD", match_mode: "CONTAINS_WORD", keywords: [KEYWORD] };
  const steps = [{ send_reply: { text: "auto {{message.text}}" } }];
  await o.sql`
    insert into automations (id, project_id, key, name, trigger, steps, active, position)
    values (${newId("automation")}, ${o.projectId}, ${`bench-${o.runId}`}, 'bench keyword', ${o.sql.json(trigger)}, ${o.sql.json(steps)}, true,
            (select coalesce(max(position), -1) + 1 from automations where project_id = ${o.projectId}))`;
}

export async function benchAutomations(o: AutomationsBenchOptions): Promise<AutomationsBenchResult[]> {
  await setUp(o);
  const results: AutomationsBenchResult[] = [];
  let firstTester = 0;
  const rows = [
    ...(o.warmupSeconds > 0 && o.rates.length ? [{ rate: o.rates[0]!, seconds: o.warmupSeconds, warmup: true }] : []),
    ...o.rates.map((rate) => ({ rate, seconds: o.seconds, warmup: false })),
  ];
  for (const { rate, seconds, warmup } of rows) {
    const count = Math.min(o.testers.length - firstTester, rate * seconds);
    if (count <= 0) throw new Error(`only ${o.testers.length} testers joined: too few for keyword rows at ${o.rates.join(" and ")}/s`);
    results.push(await atRate(o, rate, o.testers.slice(firstTester, firstTester + count), warmup));
    firstTester += count;
  }
  await sendJson(o.agent, { method: "PATCH", url: `${o.base}/api/v1/projects/${o.projectId}`, headers: o.auth, json: { routing_mode: "EXTERNAL" } });
  return results;
}

async function atRate(o: AutomationsBenchOptions, ratePerSecond: number, testers: string[], warmup: boolean): Promise<AutomationsBenchResult> {
  const count = testers.length;
  const sentAt = new Map<number, number>();
  const label = `keyword → automated reply @ ${ratePerSecond}/s${warmup ? ", warm-up (not judged)" : ""}`;
  const tag = `${ratePerSecond}${warmup ? "w" : ""}`;
  const tokenOf = (i: number) => `ab-${o.runId}-${tag}-${i}`;
  const accepted = async () => {
    const [row] = await o.sql<{ n: string }[]>`
      select count(*) as n from messages
      where project_id = ${o.projectId} and direction = 'outbound' and platform_message_id is not null and content like ${`auto ${KEYWORD} ab-${o.runId}-${tag}-%`}`;
    return Number(row!.n);
  };
  // The window runs until the replies are out, so its CPU per message is a whole keyword → reply.
  const { result: open, activity } = await o.sampleActivity(() =>
    o.phase(
      label,
      async () => {
        const sending = await openLoop({
          ratePerSecond,
          count,
          maxDurationMs: o.seconds * 1000 + 2000,
          maxInFlight: 256,
          fire: (i) => {
            sentAt.set(i, Date.now());
            return o.sendInbound(testers[i]!, `${KEYWORD} ${tokenOf(i)}`);
          },
        });
        await waitUntil(async () => ((await accepted()) >= sentAt.size ? true : null), o.waitS * 1000, 200);
        return sending;
      },
      (r) => r.sent,
    ),
  );
  o.log(`database sessions during ${label} (average busy sessions per sample):\n${activity.map((a) => `    ${a.share.toFixed(2)}  ${a.what}`).join("\n")}`);

  // Every message sent counts: a reply that never reached the simulator is +infinity.
  const latencies: number[] = [];
  const indices = [...sentAt.keys()];
  await pool(indices.length, 16, 120_000, async (k) => {
    const i = indices[k]!;
    const inbox = await sendJson<{ data: { text: string | null; sent_at: string }[] }>(o.agent, {
      method: "GET",
      url: `${o.simulator}/customer/inbox?sender_id=${encodeURIComponent(o.sandboxSender)}&address=${testers[i]}`,
    });
    const reply = inbox.body.data?.find((m) => m.text === `auto ${KEYWORD} ${tokenOf(i)}`);
    latencies.push(reply ? Date.parse(reply.sent_at) - sentAt.get(i)! : Number.POSITIVE_INFINITY);
  });
  const summary = summarize(latencies);
  const finite = (v: number | null) => (v !== null && Number.isFinite(v) ? round(v, 0) : null);
  const result: AutomationsBenchResult = {
    ratePerSecond,
    ...(warmup ? { warmup: true as const } : {}),
    sent: sentAt.size,
    replied: latencies.filter(Number.isFinite).length,
    p50Ms: finite(summary.p50),
    p99Ms: finite(summary.p99),
    maxMs: finite(summary.max),
    dropped: open.dropped,
    refused: open.failed,
    firstError: open.firstError,
  };
  o.log(
    `${label}: p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms; ${result.replied}/${result.sent} replies reached the simulator` +
      `${open.dropped ? `, ${open.dropped} not sent (in-flight cap)` : ""}${open.failed ? `, ${open.failed} refused (${open.firstError})` : ""}`,
  );
  return result;
}
