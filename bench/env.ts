/** Benchmark knobs (environment variables), machine description and small shared helpers. */
import { randomInt } from "node:crypto";
import os from "node:os";

function intOf(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be a whole number from ${min} to ${max}`);
  return value;
}

export function benchConfig() {
  return {
    skipBuild: process.env.BENCH_SKIP_BUILD === "1",
    /** Base URL of the Postgres server (loopback only); the bench creates and drops its own database there. */
    postgresUrl: process.env.BENCH_POSTGRES_URL || "postgres://postgres@127.0.0.1:5432",
    /** A dedicated Redis database index, flushed before and after; "off" runs without Redis. */
    redisUrl: process.env.BENCH_REDIS_URL || "redis://127.0.0.1:6379/7",
    connections: intOf("BENCH_CONNECTIONS", 50, 1, 500),
    /** Seconds of each measured closed-loop run (after a warm-up). */
    durationS: intOf("BENCH_DURATION_S", 10, 1, 60),
    warmupS: intOf("BENCH_WARMUP_S", 2, 0, 30),
    /**
     * Sandbox testers (= conversations) for POST /messages, which cycles through them for as long as the
     * floor runs, none again within 6.5 s (pair pacing: 1 per 6 s per recipient): 6,000 keep up with up to
     * about 900 sends/s.
     */
    testers: intOf("BENCH_TESTERS", 6000, 100, 20_000),
    /** Time bound for sending the joins (as many as fit are sent; the run goes on with those). */
    joinSendS: intOf("BENCH_JOIN_SEND_S", 75, 5, 300),
    /**
     * Inbound messages per second. Unset: 30 % of the floor's rate in the same run (issue 35's target
     * is stated at that share, so the row judges at it whatever the day's speed), 200 when no floor is
     * measured (BENCH_ONLY=cluster).
     */
    inboundRate: intOf("BENCH_INBOUND_RATE", 200, 1, 2000),
    inboundRateFromFloor: !process.env.BENCH_INBOUND_RATE,
    inboundSeconds: intOf("BENCH_INBOUND_S", 10, 1, 60),
    /** New conversations per second writing an automation's keyword (each from another tester). */
    automationRate: intOf("BENCH_AUTOMATION_RATE", 50, 1, 500),
    /** A second, faster keyword row (issue 35: p99 ≤ 500 ms at 50/s and at 100/s); 0 leaves it out. */
    automationRateHigh: intOf("BENCH_AUTOMATION_RATE_HIGH", 100, 0, 500),
    /** Seconds of keyword traffic at the first rate before the judged keyword rows, shown but not judged (bench/automations.ts); 0 for none. */
    automationWarmupS: intOf("BENCH_AUTOMATION_WARMUP_S", 10, 0, 60),
    /** Recipients of the large broadcast (its RSS is compared with a 1,000-recipient one). */
    broadcastRecipients: intOf("BENCH_BROADCAST_RECIPIENTS", 100_000, 1000, 1_000_000),
    /**
     * Where inbound messages enter: "provider" (default) POSTs each as the provider does, a signed
     * PLATFORM_A webhook to /api/providers/platform-a/webhook; "simulator" asks the built-in simulator
     * to act as the customer, which runs the provider's half in the web process too.
     */
    inboundVia: process.env.BENCH_INBOUND_VIA === "simulator" ? ("simulator" as const) : ("provider" as const),
    /** How long to wait for what is still in flight (inbound deliveries, a delivery backlog, provider jobs). */
    waitS: intOf("BENCH_WAIT_S", 30, 5, 120),
    /** How many times the inbound phase's events are replayed to build each delivery backlog. */
    replayCopies: intOf("BENCH_REPLAY_COPIES", 2, 1, 5),
    slowDelayMs: intOf("BENCH_SLOW_DELAY_MS", 10_000, 0, 60_000),
    /**
     * "broadcasts": only the broadcast rows (set-up, then straight to them), for working on that path
     * without the ten minutes of the other phases. "cluster": the testers' set-up, POST /messages and
     * inbound → webhook with 1 web + 1 worker, then the same two rows with 2 web + 2 workers
     * (bench/cluster.ts). "growth": only the growth phase (bench/growth.ts). "deliveries": the set-up,
     * the floor, POST /messages and inbound → webhook (whose events the backlogs replay), then the two
     * deliveries/s rows. "functions": the set-up's project and key only, then bench/functions.ts's
     * phases (no testers). "automations": the testers' set-up, then only the keyword → reply rows.
     * Unset: every phase but growth, the cluster phase last.
     */
    only: onlyOf(process.env.BENCH_ONLY),
    /** Sequential requests per list and size in the growth phase. */
    growthRequests: intOf("BENCH_GROWTH_REQUESTS", 500, 20, 2000),
    /**
     * Where the provider simulator runs: "process" (default), a process of its own (npm run simulator,
     * the app pointed at it with PROVIDER_GRAPH_URL) as a real provider is not on the web's event
     * loop; "in-app", the app's own /api/simulator inside the web process (the shape before 2026-11-28).
     */
    simulator: process.env.BENCH_SIMULATOR === "in-app" ? ("in-app" as const) : ("process" as const),
    /** Profiles the web and worker processes (node --cpu-prof) into bench/results/prof-<stamp>/. */
    cpuProf: process.env.BENCH_CPU_PROF === "1",
    /** More node flags for the app's processes (`--trace-gc`, `--max-semi-space-size=…`), which NODE_OPTIONS refuses or would hand to the bench too. */
    nodeFlags: nodeFlagsOf(process.env.BENCH_NODE_FLAGS),
  };
}

const ONLY = ["automations", "broadcasts", "cluster", "deliveries", "functions", "growth"] as const;

function onlyOf(raw: string | undefined): (typeof ONLY)[number] | null {
  if (raw === undefined || raw === "") return null;
  const only = ONLY.find((o) => o === raw);
  if (only) return only;
  throw new Error(`BENCH_ONLY must be one of ${ONLY.map((o) => `"${o}"`).join(", ")} or unset, not ${JSON.stringify(raw)}`);
}

export type BenchConfig = ReturnType<typeof benchConfig>;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function randomBase62(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += BASE62[randomInt(BASE62.length)];
  return out;
}

export function machine() {
  return {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
  };
}

let started = Date.now();
export function markStart(): void {
  started = Date.now();
}

export function log(message: string): void {
  console.log(`[bench ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${message}`);
}

/** Node flags from an environment variable's space-separated list (BENCH_NODE_FLAGS, STAGES_NODE_FLAGS). */
export function nodeFlagsOf(raw: string | undefined): string[] {
  return (raw ?? "").split(/\s+/).filter(Boolean);
}
