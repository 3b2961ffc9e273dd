/**
 * `BENCH_ONLY=growth npm run bench`: "flat as the data grows" (issue 35). One project is bulk-loaded
 * (bench/growth-seed.ts: Postgres-side INSERT … SELECT, not the API) first with 10,000 rows of each
 * large table, then to 1,000,000 messages in 100,000 conversations, 1,000,000 webhook deliveries (and
 * their events), 1,000,000 function invocations and 100,000 audit entries; after each step (and
 * ANALYZE) every list below is timed through the running web process with the bench's key, N
 * sequential requests, and its SQL is EXPLAINed (bench/growth-probe.ts). Target: p99 at full size ≤
 * 1.5 × p99 at 10 k, and no Seq Scan on a large table. Then one pass of each retention sweep is timed
 * over a day's expired rows.
 */
import type { BenchProject } from "./project";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pool, send, sendJson, waitUntil, type HttpRequest } from "./load";
import { startReceiver } from "./receiver";
import { runNode } from "./procs";
import { round, summarize } from "./stats";
import { providerTextDelivery, SANDBOX_CHANNEL, SANDBOX_SENDER, sandboxNumber } from "./provider-inbound";
import {
  COMMON_NAME,
  conversationIdOf,
  functionIdOf,
  GROWTH_FULL,
  growthRanges,
  RARE_NAME,
  seedStep,
  seedSweepRows,
  SPAN_MS,
  type GrowthRange,
  type GrowthTarget,
} from "./growth-seed";
import type { ExplainInput, ExplainList, ListPlans, SweepResult } from "./growth-probe";
import type { PhaseFn } from "./report";

/** Seeding a million rows per table on two shared cores takes minutes: the run's watchdog for this phase. */
export const GROWTH_WATCHDOG_MS = 50 * 60_000;
/** The target: p99 at full size within this factor of p99 at 10 k rows. */
export const GROWTH_RATIO = 1.5;
/** Requests before each measured series, not timed. */
const WARMUP = 10;

export interface GrowthTiming {
  p50Ms: number | null;
  p99Ms: number | null;
  requests: number;
  ok: number;
  firstError: string | null;
}
export interface GrowthRow {
  name: string;
  request: string;
  small: GrowthTiming;
  full: GrowthTiming;
  ratio: number | null;
  /** No Seq Scan on a large table in any statement's plan (null: not a list, nothing to EXPLAIN). */
  indexedSmall: boolean | null;
  indexedFull: boolean | null;
  plans: { small: ListPlans | null; full: ListPlans | null };
  pass: boolean;
}
export interface GrowthBenchResult {
  requestsPerRow: number;
  rows: { small: Record<string, number>; full: Record<string, number> };
  seedSeconds: { small: Record<string, number>; rest: Record<string, number> };
  measured: GrowthRow[];
  sweeps: SweepResult[];
  sweepRows: { media: number; dispatches: number };
}

export interface GrowthOptions extends BenchProject {
  organizationId: string;
  joinCode: string;
  runId: string;
  /** The app's environment (DATABASE_URL, …) for bench/growth-probe.ts. */
  appEnv: NodeJS.ProcessEnv;
  requests: number;
  log: (message: string) => void;
  phase: PhaseFn;
}

interface Probe {
  name: string;
  /** The request for the k-th run at this size. */
  make: (k: number) => HttpRequest;
  okStatus: number;
  /** The list whose SQL is EXPLAINed (null: a write path). */
  list: ExplainList | null;
  /** Inbound → webhook: the time until the receiver has the message, not the HTTP answer. */
  until?: (k: number) => Promise<boolean>;
}

export async function benchGrowth(o: GrowthOptions): Promise<GrowthBenchResult> {
  const { base, auth, agent, sql, log } = o;
  const json = { ...auth, "content-type": "application/json" };

  // ── set-up: sandbox testers (POST /messages goes to their conversations), a webhook receiver ──
  const tester = (i: number) => `1559${String(i).padStart(7, "0")}1`;
  // Pair pacing allows one message per recipient per 6 s: each POST of a size goes to its own tester.
  const testers = o.requests + WARMUP;
  let joinError: string | null = null;
  await pool(testers, 8, 180_000, async (i) => {
    const r = await sendJson<{ delivered_status: number | null }>(agent, {
      method: "POST",
      url: `${o.simulator}/customer/messages`,
      json: { platform: "PLATFORM_A", sender_id: SANDBOX_SENDER, from: tester(i), type: "text", text: `join ${o.joinCode}` },
      timeoutMs: 30_000,
    });
    if (r.status !== 200 || r.body.delivered_status !== 200) joinError ??= `${r.status} ${JSON.stringify(r.body)}`;
  });
  if (joinError) throw new Error(`growth: join: ${joinError}`);
  const joined = await waitUntil(
    async () => {
      const [row] = await sql<{ n: string }[]>`select count(*) as n from sandbox_participants where project_id = ${o.projectId}`;
      return Number(row!.n) >= testers ? true : null;
    },
    120_000,
    250,
  );
  if (!joined) throw new Error(`growth: ${testers} sandbox testers did not join within 120 s`);
  const testerConversations = (await sql<{ id: string }[]>`select id from conversations where project_id = ${o.projectId} order by id`).map((r) => r.id);
  const receiver = await startReceiver({ tokenPrefix: `grow-${o.runId}-` });
  try {
    const patched = await sendJson(agent, {
      method: "PATCH",
      url: `${base}/api/v1/projects/${o.projectId}`,
      headers: auth,
      json: { webhook_url: receiver.url },
    });
    if (patched.status !== 200) throw new Error(`growth: PATCH webhook_url: ${patched.status} ${JSON.stringify(patched.body)}`);
    const sandbox = await sendJson<{ phone_number: string | null }>(agent, { method: "GET", url: `${base}/api/v1/channels/${SANDBOX_CHANNEL}`, headers: auth });
    const senderInfo = sandboxNumber(sandbox.body.phone_number);
    log(`growth: ${testerConversations.length} tester conversations, webhook receiver ${receiver.url}`);

    // Seeded rows end an hour ago: the testers' conversations and what the bench sends stay the newest.
    const target: GrowthTarget = { projectId: o.projectId, organizationId: o.organizationId, channelId: SANDBOX_CHANNEL, t0: Date.now() - SPAN_MS - 3600_000 };
    const { small, rest } = growthRanges();
    const functionId = await functionIdOf(sql, target, 0);

    let sent = 0;
    const probes = async (range: GrowthRange): Promise<Probe[]> => {
      const conversations = range.conversations[1];
      const deep = await conversationIdOf(sql, target, Math.floor(conversations / 2));
      const newest = await conversationIdOf(sql, target, conversations - 1);
      const get = (name: string, url: string, list: ExplainList): Probe => ({
        name,
        make: () => ({ method: "GET", url: `${base}/api/v1${url}`, headers: auth }),
        okStatus: 200,
        list,
      });
      return [
        get("conversations, first page", "/conversations?limit=20", { name: "", kind: "conversations", query: { limit: 20 } }),
        get(`conversations, deep page (after #${Math.floor(conversations / 2).toLocaleString("en-US")})`, `/conversations?limit=20&starting_after=${deep}`, {
          name: "",
          kind: "conversations",
          query: { limit: 20, starting_after: deep },
        }),
        get("conversation's message history", `/conversations/${newest}/messages?limit=20`, {
          name: "",
          kind: "history",
          conversationId: newest,
          query: { limit: 20 },
        }),
        get(`conversation search, 2 % match (q=${COMMON_NAME})`, `/conversations?limit=20&q=${COMMON_NAME.toLowerCase()}`, {
          name: "",
          kind: "conversations",
          query: { limit: 20, q: COMMON_NAME.toLowerCase() },
        }),
        // The rare term matches one conversation at 10 k and a hundred at full size: a page of one is the
        // same answer at both sizes. With 20 the full-size answer serialized twenty conversations against
        // one (what the first-page row already times), and the ratio measured the page, not the search.
        get(`conversation search, 0.1 % match (q=${RARE_NAME}, limit=1)`, `/conversations?limit=1&q=${RARE_NAME.toLowerCase()}`, {
          name: "",
          kind: "conversations",
          query: { limit: 1, q: RARE_NAME.toLowerCase() },
        }),
        get("webhook log, event + status filter", "/webhook-deliveries?limit=20&event=message.received&status=failed", {
          name: "",
          kind: "deliveries",
          query: { limit: 20, event: "message.received", status: "failed" },
        }),
        get("webhook log, unfiltered", "/webhook-deliveries?limit=20", { name: "", kind: "deliveries", query: { limit: 20 } }),
        get("function invocation log", `/functions/${functionId}/invocations?limit=20`, { name: "", kind: "invocations", functionId, query: { limit: 20 } }),
        get("audit log", "/audit-events?limit=20", { name: "", kind: "audit", query: { limit: 20 } }),
        {
          name: "POST /messages",
          make: () => {
            const i = sent++;
            return {
              method: "POST",
              url: `${base}/api/v1/messages`,
              headers: { ...json, "idempotency-key": `growth-${o.runId}-${i}` },
              body: JSON.stringify({ channel_id: SANDBOX_CHANNEL, conversation_id: testerConversations[i % testerConversations.length], text: `growth ${i}` }),
            };
          },
          okStatus: 200,
          list: null,
        },
        {
          name: "inbound → webhook",
          make: (k) => {
            const token = `grow-${o.runId}-${conversations}-${k}`;
            return providerTextDelivery(base, senderInfo, tester(k % testers), token).request;
          },
          okStatus: 200,
          list: null,
          until: async (k) => {
            const token = `grow-${o.runId}-${conversations}-${k}`;
            return (await waitUntil(() => (receiver.tokens.has(token) ? true : null), 10_000, 2)) !== null;
          },
        },
      ];
    };

    const measure = async (label: string, range: GrowthRange) => {
      const list = await probes(range);
      const timings: GrowthTiming[] = [];
      for (const probe of list) {
        const warm = WARMUP;
        const samples: number[] = [];
        let ok = 0;
        let firstError: string | null = null;
        for (let k = 0; k < warm + o.requests; k++) {
          const started = performance.now();
          let good = false;
          try {
            const r = await send(agent, { ...probe.make(k), timeoutMs: 30_000 });
            good = r.status === probe.okStatus && (probe.until ? await probe.until(k) : true);
            if (!good) firstError ??= `${r.status} ${r.body.slice(0, 200)}`;
          } catch (error) {
            firstError ??= error instanceof Error ? error.message : String(error);
          }
          if (k < warm) continue;
          samples.push(good ? performance.now() - started : Number.POSITIVE_INFINITY);
          if (good) ok++;
        }
        const s = summarize(samples);
        const finite = (v: number | null) => (v !== null && Number.isFinite(v) ? round(v, 1) : null);
        timings.push({ p50Ms: finite(s.p50), p99Ms: finite(s.p99), requests: o.requests, ok, firstError });
        log(`growth ${label}: ${probe.name}: p50 ${finite(s.p50)} ms, p99 ${finite(s.p99)} ms (${ok}/${o.requests} ok${firstError ? `; ${firstError}` : ""})`);
      }
      const explained = list.flatMap((p, i) => (p.list ? [{ ...p.list, name: String(i) }] : []));
      const input: ExplainInput = { projectId: o.projectId, lists: explained };
      const out = await runNode(["--import", "tsx", path.join("bench", "growth-probe.ts"), "explain", JSON.stringify(input)], o.appEnv, 180_000);
      const plans = JSON.parse(/growth-probe: (.*)/.exec(out)?.[1] ?? "null") as ListPlans[] | null;
      if (!plans) throw new Error(`growth-probe explain printed no result:\n${out.slice(-2000)}`);
      const planOf = (i: number) => plans.find((p) => p.name === String(i)) ?? null;
      return list.map((p, i) => ({ name: p.name, timing: timings[i]!, plans: planOf(i) }));
    };

    const requestsOf = (rows: { timing: GrowthTiming }[]) => rows.reduce((n, r) => n + r.timing.requests, 0);
    const counts = async () => {
      const out: Record<string, number> = {};
      for (const table of ["conversations", "messages", "webhook_deliveries", "function_invocations", "audit_events"]) {
        const [row] = await sql.unsafe<{ n: string }[]>(`select count(*) as n from ${table} where project_id = $1`, [o.projectId]);
        out[table] = Number(row!.n);
      }
      return out;
    };

    log(`growth: seeding 10,000 rows per large table (${small.conversations[1]} conversations) …`);
    const seedSmall = await o.phase("growth seed 10 k (set-up)", () => seedStep(sql, target, small, true));
    log(`growth: seeded in ${JSON.stringify(seedSmall)} s`);
    const rowsSmall = await counts();
    const atSmall = await o.phase("growth at 10 k", () => measure("10 k", small), requestsOf);
    log(`growth: seeding to full size (${GROWTH_FULL.messages.toLocaleString("en-US")} messages …) …`);
    const seedRest = await o.phase("growth seed full (set-up)", () => seedStep(sql, target, rest, false));
    log(`growth: seeded in ${JSON.stringify(seedRest)} s`);
    const rowsFull = await counts();
    const full: GrowthRange = Object.fromEntries(Object.entries(rest).map(([k, [, to]]) => [k, [0, to]])) as GrowthRange;
    const atFull = await o.phase("growth at full size", () => measure("full", full), requestsOf);

    const measured: GrowthRow[] = atSmall.map((s, i) => {
      const f = atFull[i]!;
      const ratio = s.timing.p99Ms && f.timing.p99Ms ? round(f.timing.p99Ms / s.timing.p99Ms, 2) : null;
      const indexedSmall = s.plans ? s.plans.indexed : null;
      const indexedFull = f.plans ? f.plans.indexed : null;
      return {
        name: s.name.replace(/ \(after #[\d,]+\)/, ""),
        request: f.name,
        small: s.timing,
        full: f.timing,
        ratio,
        indexedSmall,
        indexedFull,
        plans: { small: s.plans, full: f.plans },
        pass: ratio !== null && ratio <= GROWTH_RATIO && indexedFull !== false && f.timing.ok === o.requests,
      };
    });

    // ── retention sweeps over a day's expired rows ──
    const sweepRows = await seedSweepRows(sql, target);
    const out = await runNode(
      ["--import", "tsx", path.join("bench", "growth-probe.ts"), "sweep", JSON.stringify({ t0: target.t0, projectId: o.projectId })],
      o.appEnv,
      600_000,
    );
    const sweeps = JSON.parse(/growth-probe: (.*)/.exec(out)?.[1] ?? "null") as SweepResult[] | null;
    if (!sweeps) throw new Error(`growth-probe sweep printed no result:\n${out.slice(-2000)}`);
    for (const s of sweeps) log(`growth sweep ${s.name}: ${s.rows} rows in ${s.seconds} s`);
    return {
      requestsPerRow: o.requests,
      rows: { small: rowsSmall, full: rowsFull },
      seedSeconds: { small: seedSmall, rest: seedRest },
      measured,
      sweeps,
      sweepRows,
    };
  } finally {
    await receiver.close();
  }
}

/** The growth table: one row per list, p99 at 10 k and at full size, the ratio and the plans' verdict. */
export function printGrowth(g: GrowthBenchResult): void {
  const yes = (v: boolean | null) => (v === null ? "n/a" : v ? "yes" : "NO (seq scan)");
  const ms = (v: number | null) => (v === null ? "n/a" : `${v} ms`);
  const rows: string[][] = [["query", "p50 / p99 at 10 k", "p50 / p99 at full", "ratio p99", "index", ""]];
  for (const r of g.measured)
    rows.push([
      r.name,
      `${ms(r.small.p50Ms)} / ${ms(r.small.p99Ms)}`,
      `${ms(r.full.p50Ms)} / ${ms(r.full.p99Ms)}`,
      r.ratio === null ? "n/a" : `×${r.ratio}`,
      yes(r.indexedFull),
      r.pass ? "PASS" : "FAIL",
    ]);
  const f = g.rows.full;
  console.log(
    `\ngrowth: ${g.requestsPerRow} sequential requests per row; full size ${f.messages?.toLocaleString("en-US")} messages, ${f.conversations?.toLocaleString("en-US")} conversations, ` +
      `${f.webhook_deliveries?.toLocaleString("en-US")} deliveries, ${f.function_invocations?.toLocaleString("en-US")} invocations, ${f.audit_events?.toLocaleString("en-US")} audit entries; ` +
      `target p99 ratio ≤ ${GROWTH_RATIO} and an index\n`,
  );
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const [k, row] of rows.entries()) {
    console.log(
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    );
    if (k === 0) console.log("-".repeat(widths.reduce((a, b) => a + b + 2, 0)));
  }
  console.log("\nretention sweeps, one pass over a day's expired rows at this scale:");
  for (const s of g.sweeps)
    console.log(`  ${s.name.padEnd(30)} ${String(s.rows).padStart(7)} rows in ${s.seconds} s (runs every ${s.everyMinutes} min, batches of ${s.batch})`);
}
