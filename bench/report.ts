/** The results file's shape and the one table `npm run bench` prints, side by side with the targets. */
import type { AutomationsBenchResult } from "./automations";
import type { BroadcastBenchResult } from "./broadcasts";
import type { ConfigBenchResult } from "./config";
import type { FunctionsBenchResult } from "./functions";
import { printGrowth, type GrowthBenchResult } from "./growth";
import type { WebPauses } from "./web-pauses";
import type { OwnStalls } from "./own-stalls";

export interface LoopResult {
  rps: number;
  p50Ms: number | null;
  p99Ms: number | null;
  ratioToFloor: number | null;
  requests: number;
  ok: number;
  statuses: Record<string, number>;
  seconds: number;
  firstError: string | null;
  /** [start ms, answers, p50 ms, max ms] per quarter second (bench/load.ts). */
  timeline: [number, number, number, number][];
  /** The web's collections over the measured run, by kind (bench/web-pauses.ts); null when not scraped. */
  webPauses: WebPauses | null;
  /** The bench process's own stalls during the run (bench/own-stalls.ts). */
  generator: OwnStalls;
}

export interface DrainResult {
  expected: number;
  received: number;
  perSecond: number | null;
  seconds: number;
}

export interface Memory {
  peakMiB: number;
  treePeakMiB: number;
  processes: number;
}

/** CPU milliseconds per message by role (web, worker, postgres, simulator, bench), each role's processes summed. */
export type CpuPerMessage = Record<string, number>;

/**
 * Runs one measured window (bench/run.ts records its cores used). `operations` counts what the window
 * did (requests, messages, deliveries) so the report can give CPU per operation: a cost that does not
 * depend on the day's speed the way a latency does.
 */
export type PhaseFn = <T>(name: string, run: () => Promise<T>, operations?: (result: T) => number) => Promise<T>;

/** One phase's window as the results file keeps it. */
export interface PhaseRecord {
  name: string;
  start: number;
  end: number;
  webS: [number, number];
  workerS: [number, number] | null;
  cores: Record<string, number> | null;
  /** What the window did (requests, messages, deliveries), when the phase counts it. */
  operations: number | null;
  /** CPU milliseconds per operation by role; null when the phase does not count operations. */
  cpuMsPerOp: CpuPerMessage | null;
  /** The web's peak RSS (VmHWM) at the phase's end: the phase where it rises is the one that raised it. */
  webPeakMiB?: number | null;
  /**
   * Seconds of the window in which the autovacuum stand-in vacuumed or analyzed (bench/autovacuum.ts):
   * its Postgres work shares the two cores with the phase, as autovacuum's does on a server.
   */
  standInS?: number;
}

/** POST /api/v1/messages in one shape (bench/rows.ts). */
export interface MessagesRow extends LoopResult {
  provider: { accepted: number; sent: number; failed: number; stillQueued: number; seconds: number; drained: boolean };
  dbActivity: { what: string; share: number }[];
  /**
   * Per stored message: its POST (warm-up and measured loop, the workers stopped) plus its provider
   * job and three status callbacks (from the workers' start until the statuses settle).
   */
  cpuMsPerMessage: CpuPerMessage;
  /** The POSTs alone (warm-up and measured loop): the web processes and Postgres. */
  cpuMsPerMessageSending: CpuPerMessage;
  /** Nothing broke: every accepted POST stored once (distinct Idempotency-Keys) and accepted once by the provider (simulator). */
  check: { answered: number; stored: number; storedTwice: number; handedToProvider: number; providerAccepted: number; ok: boolean };
}

/** Inbound → webhook in one shape (bench/rows.ts). */
export interface InboundRow {
  via: "provider" | "simulator";
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  sent: number;
  received: number;
  dropped: number;
  refused: number;
  waitS: number;
  ratePerSecond: number;
  seconds: number;
  senderMaxLagMs: number;
  /** From the first send until the last delivery (or the wait's end), per message our endpoint accepted. */
  cpuMsPerMessage: CpuPerMessage;
  /** Nothing broke: every message our endpoint accepted stored once and delivered once to the receiver. */
  check: { accepted: number; stored: number; storedTwice: number; delivered: number; deliveredTwice: number; ok: boolean };
}

/** The same two rows with 2 web processes and 2 workers (bench/cluster.ts), beside `messages` and `inbound` (1 + 1). */
export interface ClusterBenchResult {
  webs: number;
  workers: number;
  messages: MessagesRow;
  inbound: InboundRow;
  /** The second web process and the second worker. */
  memory: { web: Memory | null; worker: Memory | null };
}

/** The rows of every phase; a run with BENCH_ONLY set has only its own. */
export interface Measured {
  setup?: { testers: number; joinSeconds: number; joinsPerSecond: number; simulatorJoinsPerSecond: number };
  floor?: LoopResult;
  limits?: LoopResult;
  functions?: FunctionsBenchResult;
  messages?: MessagesRow;
  inbound?: InboundRow;
  deliveries?: { alone: DrainResult; withSlow: DrainResult & { slowBacklog: number; slowReceived: number; slowDelayMs: number } };
  /** One row per keyword rate (a results file from before 2026-11-30 holds one object). */
  automations?: AutomationsBenchResult[] | AutomationsBenchResult;
  configAsCode?: ConfigBenchResult;
  broadcasts?: BroadcastBenchResult;
  cluster?: ClusterBenchResult;
  growth?: GrowthBenchResult;
}

export interface Results extends Measured {
  when: string;
  machine: { nproc: number; cpu: string; memoryGiB: number; node: string; platform: string; postgres: string; redis: string | null };
  config: Record<string, unknown>;
  memory: { web: Memory | null; worker: Memory | null; workerStarts: number; simulator?: Memory | null };
  /** Phase windows: epoch ms, and seconds since the web's / the then-current worker's start (for bench/cpuprofile.ts). */
  phases: PhaseRecord[];
  totalSeconds: number;
}

const verdict = (ok: boolean | null) => (ok === null ? "" : ok ? "PASS" : "FAIL");
const num = (v: number | null | undefined, unit = "") => (v === null || v === undefined ? "n/a" : `${v.toLocaleString("en-US")}${unit}`);

/** "Not slower" beside the slow receiver: within 10 % of the rate alone (run-to-run noise on 2 cores). */
export const NOT_SLOWER_RATIO = 0.9;

export function printTable(r: Results): void {
  const rows: [string, string, string, string][] = [];
  const loop = (name: string, l: LoopResult, target: string, ok: boolean | null) =>
    rows.push([name, `${num(l.rps)} req/s  p50 ${num(l.p50Ms, " ms")}  p99 ${num(l.p99Ms, " ms")}  ×${l.ratioToFloor ?? "n/a"} floor`, target, verdict(ok)]);

  if (r.floor) loop("floor: GET /api/v1/nope (404)", r.floor, "(reference)", null);
  if (r.limits) loop("GET /api/v1/limits", r.limits, "", null);
  if (r.functions) {
    const f = r.functions;
    rows.push([
      "POST /functions/{id}/invoke (trivial, warm)",
      `p50 ${num(f.invokeP50Ms, " ms")} vs /limits ${num(f.limitsP50Ms, " ms")}: +${num(f.overheadP50Ms, " ms")}  p99 ${num(f.invokeP99Ms, " ms")}`,
      "overhead ≤ 2 ms at p50",
      verdict(f.overheadP50Ms !== null && f.overheadP50Ms <= 2),
    ]);
    rows.push([
      "  trivial invocations/s ×4, beside a heavy one",
      `${num(f.trivialBesideHeavyPerSecond)}/s beside ${f.heavyRuns} heavy runs (alone ${num(f.trivialAlonePerSecond)}/s; ×${f.keptRatio ?? "n/a"})`,
      "not starved",
      verdict(f.trivialBesideHeavyPerSecond > 0 && (f.keptRatio ?? 0) >= 0.5),
    ]);
  }
  if (r.messages) {
    const m = r.messages;
    // Issue 35's targets, as shares of the floor measured in the same run (this machine's speed moves 2-3× between days).
    const p99Ratio = r.floor?.p99Ms && m.p99Ms !== null ? m.p99Ms / r.floor.p99Ms : null;
    loop(
      "POST /api/v1/messages",
      m,
      `≥ ×0.5 floor, p99 ≤ 2× floor's (×${p99Ratio === null ? "n/a" : p99Ratio.toFixed(2)})`,
      (m.ratioToFloor ?? 0) >= 0.5 && p99Ratio !== null && p99Ratio <= 2,
    );
    rows.push(["  provider jobs (simulator)", `${num(m.provider.sent)} sent of ${num(m.provider.accepted)} within ${m.provider.seconds} s`, "", ""]);
  }
  if (r.inbound) {
    const i = r.inbound;
    const over = `> ${i.waitS} s`;
    const scheduled = i.sent + i.dropped;
    rows.push([
      `inbound → webhook @ ${i.ratePerSecond}/s${i.via === "simulator" ? " (via simulator)" : ""}`,
      `p50 ${i.p50Ms === null ? over : num(i.p50Ms, " ms")}  p99 ${i.p99Ms === null ? over : num(i.p99Ms, " ms")}  (${i.received}/${scheduled} received${i.dropped ? `, ${i.dropped} not sent: server behind` : ""})`,
      `p99 ≤ 250 ms at ≥ 30 % of floor (${r.floor ? `${Math.round((i.ratePerSecond / r.floor.rps) * 100)} %` : "no floor"})`,
      verdict(i.p99Ms !== null && i.p99Ms <= 250 && i.received === scheduled && (r.floor ? i.ratePerSecond >= 0.3 * r.floor.rps - 1 : false)),
    ]);
  }
  if (r.deliveries) {
    const d = r.deliveries;
    rows.push([
      "webhook deliveries, alone",
      `${num(d.alone.perSecond)}/s  (${d.alone.received}/${d.alone.expected})`,
      "≥ the floor's rate",
      verdict(r.floor ? (d.alone.perSecond ?? 0) >= r.floor.rps : null),
    ]);
    const kept = d.alone.perSecond && d.withSlow.perSecond ? d.withSlow.perSecond / d.alone.perSecond : null;
    rows.push([
      `  beside a ${d.withSlow.slowDelayMs / 1000} s receiver`,
      `${num(d.withSlow.perSecond)}/s  (${d.withSlow.received}/${d.withSlow.expected}; ×${kept === null ? "n/a" : kept.toFixed(2)} of alone)`,
      `≥ ${NOT_SLOWER_RATIO * 100} % of alone`,
      verdict((kept ?? 0) >= NOT_SLOWER_RATIO),
    ]);
  }
  for (const a of r.automations === undefined ? [] : Array.isArray(r.automations) ? r.automations : [r.automations]) {
    const over = `> ${r.inbound?.waitS ?? "?"} s`;
    const measured = `p50 ${a.p50Ms === null ? "n/a" : num(a.p50Ms, " ms")}  p99 ${a.p99Ms === null ? over : num(a.p99Ms, " ms")}  (${a.replied}/${a.sent + a.dropped} replies${a.dropped ? `, ${a.dropped} not sent` : ""})`;
    // The warm-up is shown, not judged (bench/automations.ts warmupSeconds).
    if (a.warmup) rows.push([`keyword → automated reply @ ${a.ratePerSecond}/s, warm-up first`, measured, "(not judged)", ""]);
    else
      rows.push([
        `keyword → automated reply @ ${a.ratePerSecond} conversations/s`,
        measured,
        "p99 ≤ 500 ms",
        verdict(a.p99Ms !== null && a.p99Ms <= 500 && a.replied === a.sent + a.dropped),
      ]);
  }
  if (r.configAsCode) {
    const c = r.configAsCode;
    rows.push([
      `config apply: ${c.flows} flows + ${c.automations} automations`,
      `first ${num(c.firstApplyMs, " ms")}, again ${num(c.secondApplyMs, " ms")} (${c.secondAllUnchanged ? "all unchanged" : "CHANGES"}), export → apply ${c.exportAllUnchanged ? "all unchanged" : "CHANGES"}`,
      "second apply all unchanged",
      verdict(c.secondAllUnchanged && c.exportAllUnchanged),
    ]);
  }
  if (r.broadcasts) {
    const b = r.broadcasts;
    rows.push([
      `broadcast of ${b.large.recipients.toLocaleString("en-US")} at ${b.throughput.toLocaleString("en-US")}/s`,
      `${num(b.large.ratePerSecond)}/s sent (${b.large.accepted.toLocaleString("en-US")} accepted, ${b.large.refused} refused 130429, ${b.large.completed ? "COMPLETED" : "not completed"} in ${b.large.seconds} s)`,
      `≥ ${(0.95 * b.throughput).toLocaleString("en-US")}/s`,
      verdict((b.large.ratePerSecond ?? 0) >= 0.95 * b.throughput && b.large.completed),
    ]);
    rows.push([
      `  worker RSS, ${b.large.recipients.toLocaleString("en-US")} vs ${b.small.recipients.toLocaleString("en-US")} recipients`,
      `${num(b.large.peakRssMiB, " MiB")} vs ${num(b.small.peakRssMiB, " MiB")} (×${b.rssRatio ?? "n/a"}; ${b.small.broadcasts} of ${b.small.recipients.toLocaleString("en-US")} in turn, ${b.small.seconds} s)`,
      "within 10 %",
      verdict(b.rssRatio !== null && b.rssRatio <= 1.1),
    ]);
  }
  const mem = (x: Memory | null) => (x ? `${num(x.peakMiB)} MiB (tree ${num(x.treePeakMiB)} MiB, ${x.processes} proc)` : "n/a");
  rows.push(["peak RSS web (VmHWM)", mem(r.memory.web), "", ""]);
  rows.push([`peak RSS worker (VmHWM, ${r.memory.workerStarts} starts)`, mem(r.memory.worker), "", ""]);
  if (r.memory.simulator !== undefined) rows.push(["peak RSS simulator (VmHWM)", mem(r.memory.simulator), "", ""]);

  const mc = r.machine;
  console.log(`\nsvc bench — ${mc.nproc} cores (${mc.cpu}), ${mc.memoryGiB} GiB, Node ${mc.node}, ${mc.postgres}, Redis ${mc.redis ?? "off"}`);
  const only = r.setup ? `; ${r.setup.testers} sandbox testers joined in ${r.setup.joinSeconds} s` : ` (BENCH_ONLY=${String(r.config.only)})`;
  console.log(`50 connections, closed loop; web (SVC_WORKER=off) + 1 worker${only}\n`);
  const header: [string, string, string, string] = ["metric", "measured", "target", ""];
  const widths = [0, 1, 2].map((i) => Math.max(header[i]!.length, ...rows.map((row) => row[i]!.length)));
  const line = (row: [string, string, string, string]) =>
    `${row[0].padEnd(widths[0]!)}  ${row[1].padEnd(widths[1]!)}  ${row[2].padEnd(widths[2]!)}  ${row[3]}`.trimEnd();
  console.log(line(header));
  console.log("-".repeat(widths[0]! + widths[1]! + widths[2]! + 12));
  for (const row of rows) console.log(line(row));
  if (r.growth) printGrowth(r.growth);

  // Where the cores went while each measurement ran (the machine has mc.nproc).
  const measured = r.phases.filter((p) => p.cores && !p.name.includes("set-up"));
  if (measured.length) {
    // The simulator's column only when it ran as a process of its own (BENCH_SIMULATOR=process).
    const roles = ["web", "worker", "postgres", ...(measured.some((p) => p.cores!.simulator !== undefined) ? ["simulator"] : []), "bench"];
    console.log(`\ncores used while measured (of ${mc.nproc}): ${roles.join(" · ")} (bench: load generator + receivers)`);
    const width = Math.max(...measured.map((p) => p.name.length));
    for (const p of measured) {
      const c = p.cores!;
      const total = Object.values(c).reduce((a, b) => a + b, 0);
      const standIn = p.standInS ? `  (autovacuum stand-in ${p.standInS} s of it)` : "";
      console.log(`  ${p.name.padEnd(width)}  ${roles.map((role) => (c[role] ?? 0).toFixed(2)).join(" · ")}  = ${total.toFixed(2)}${standIn}`);
    }
  }
  printCpuPerOperation(r);
  printCluster(r);
}

/**
 * What each operation cost, by role: the figure a change is judged by (issue 35), as it moves far less
 * between days than a rate or a latency. The POST and inbound rows count a message end to end (bench/rows.ts).
 */
function printCpuPerOperation(r: Results): void {
  const roles = ["web", "worker", "postgres"];
  const rows: [string, CpuPerMessage, number | null][] = r.phases.filter((p) => p.cpuMsPerOp).map((p) => [p.name, p.cpuMsPerOp!, p.operations]);
  if (r.messages) rows.push(["POST /messages, end to end (provider job, 3 status callbacks)", r.messages.cpuMsPerMessage, r.messages.check.stored]);
  if (r.inbound) rows.push([`inbound → webhook @ ${r.inbound.ratePerSecond}/s, end to end`, r.inbound.cpuMsPerMessage, r.inbound.check.accepted]);
  if (!rows.length) return;
  console.log(`
CPU ms per operation: ${roles.join(" · ")} = total (operations)`);
  const width = Math.max(...rows.map(([name]) => name.length));
  for (const [name, cpu, ops] of rows) {
    const total = roles.reduce((sum, role) => sum + (cpu[role] ?? 0), 0);
    console.log(`  ${name.padEnd(width)}  ${roles.map((role) => (cpu[role] ?? 0).toFixed(2)).join(" · ")} = ${total.toFixed(2)}  (${num(ops)})`);
  }
}

/** The cluster phase: each row's 2 + 2 figures beside the 1 + 1 figures of the same run. */
function printCluster(r: Results): void {
  const c = r.cluster;
  if (!c || !r.messages || !r.inbound) return;
  const roles = ["web", "worker", "postgres"];
  const cpu = (x: CpuPerMessage) => roles.map((role) => (x[role] ?? 0).toFixed(2)).join(" · ");
  const ok = (v: boolean) => (v ? "OK" : "BROKEN");
  const post = (m: MessagesRow) => `${num(m.rps)} req/s  p50 ${num(m.p50Ms, " ms")}  p99 ${num(m.p99Ms, " ms")}`;
  const sends = (m: MessagesRow) => {
    const k = m.check;
    return `${num(k.stored)}/${num(k.answered)} stored (${k.storedTwice} twice), ${num(k.handedToProvider)} sent, provider got ${num(k.providerAccepted)}: ${ok(k.ok)}`;
  };
  const inbound = (i: InboundRow) =>
    `p50 ${i.p50Ms === null ? `> ${i.waitS} s` : num(i.p50Ms, " ms")}  p99 ${i.p99Ms === null ? `> ${i.waitS} s` : num(i.p99Ms, " ms")}  (${i.received}/${i.sent + i.dropped})`;
  const received = (i: InboundRow) => {
    const k = i.check;
    return `${num(k.stored)}/${num(k.accepted)} stored (${k.storedTwice} twice), ${num(k.delivered)} delivered (${k.deliveredTwice} twice): ${ok(k.ok)}`;
  };
  const rows: [string, string, string][] = [
    ["", "1 web + 1 worker", `${c.webs} web + ${c.workers} workers`],
    ["POST /api/v1/messages", post(r.messages), post(c.messages)],
    [`  CPU ms/message (${roles.join(" · ")})`, cpu(r.messages.cpuMsPerMessage), cpu(c.messages.cpuMsPerMessage)],
    ["  stored once, sent once", sends(r.messages), sends(c.messages)],
    [`inbound → webhook @ ${r.inbound.ratePerSecond}/s`, inbound(r.inbound), inbound(c.inbound)],
    [`  CPU ms/message (${roles.join(" · ")})`, cpu(r.inbound.cpuMsPerMessage), cpu(c.inbound.cpuMsPerMessage)],
    ["  stored once, delivered once", received(r.inbound), received(c.inbound)],
  ];
  console.log(
    `\n${c.webs} web + ${c.workers} workers beside 1 + 1, the same run (load round robin over the web processes; on ${r.machine.nproc} cores not faster: what coordination costs per message, and whether anything broke)`,
  );
  const widths = [0, 1].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const row of rows) console.log(`  ${row[0].padEnd(widths[0]!)}  ${row[1].padEnd(widths[1]!)}  ${row[2]}`.trimEnd());
}
