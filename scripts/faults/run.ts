/**
 * `npm run faults`: the fault suite against the PRODUCTION build. `next start` (SVC_WORKER=off) plus
 * one `npm run worker` process, on a private Postgres cluster and a private redis-server (free
 * loopback ports, temp folders; the machine's shared servers are never touched), with a loopback
 * webhook receiver as the project's webhook_url. Scenarios (scripts/faults/scenarios/):
 *
 *   1. Redis stopped and restarted: 503 message_rate_limit_unavailable within 1 s, then 200; media Range → 416
 *   2. Postgres restarted 3× under ~20 inbound provider messages/s: nothing lost, no process died, no 500, ≤ 5 s
 *   3. the worker SIGKILLed mid-delivery: every event still delivered
 *   4. hostile inputs: NUL, lone surrogates, prototype keys, deep nesting, 20 MB bodies, bad percent-encoding
 *   5. hostile function results: what Postgres cannot store, returned or logged by user code: 200, one invocation row each
 *   6. a 3,000-recipient broadcast whose worker is SIGKILLed twice: nobody sent twice, resumed ≤ 30 s after each restart, completed
 *   7. 2 web + 2 workers on one Postgres, Redis and S3 bucket under spread load: one of each SIGKILLed, the others SIGTERMed:
 *      nothing accepted lost, nothing delivered or sent twice, no 5xx from the drained process, pacing and rate limits shared
 *
 * Each prints what it sent, what was stored and what was delivered; the exit code is non-zero on any
 * failure. Every loop is bounded in count and time; a watchdog ends the run after 12 minutes.
 *
 *   SVC_FAULTS_DIST_DIR=.next-faults   the build to serve (default .next); built only when it holds none
 *   SVC_FAULTS_BUILD=1                 rebuild it first
 *   SVC_FAULTS_ONLY=redis,hostile      run only these scenarios (redis, postgres, worker, hostile, hostile-results, broadcast-crash, multi)
 *   SVC_FAULTS_PART=waiting|timed      only the scenarios that mostly wait (no latency limit: they may run
 *                                      beside other work, as CI runs them beside Playwright), or only the
 *                                      others (latency or CPU limits: run them on a quiet machine)
 *   SVC_FAULTS_KEEP=1                  keep the temp folder (databases); process logs are always kept
 */
import { cleanupStack, guardRun } from "../../bench/run-guard";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBase62 } from "../../bench/env";
import { startReceiver } from "../../bench/receiver";
import type { Delivered, FaultContext } from "./context";
import { printSummary, runScenario, type Report, type ScenarioResult } from "./report";
import { broadcastCrashScenario } from "./scenarios/broadcast-crash";
import { hostileScenario } from "./scenarios/hostile";
import { hostileResultsScenario } from "./scenarios/hostile-results";
import { postgresScenario } from "./scenarios/postgres";
import { redisScenario } from "./scenarios/redis";
import { workerKillScenario } from "./scenarios/worker-kill";
import { multiProcessScenario } from "./scenarios/multi-process";
import { PrivatePostgres, PrivateRedis } from "./services";
import { ensureBuild, Stack } from "./stack";

const WATCHDOG_MS = 18 * 60_000;
const TESTERS = 12;
const MAX_RECEIVED = 20_000;

/**
 * `waits: true` marks a scenario that spends its time waiting (for pg-boss to expire an abandoned job)
 * and judges no latency or CPU figure: CI runs those beside Playwright (SVC_FAULTS_PART=waiting) and
 * the rest alone. A scenario without the mark is timed: it runs on a quiet machine.
 */
const SCENARIOS: { id: string; name: string; waits?: true; run: (ctx: FaultContext, r: Report) => Promise<void> }[] = [
  { id: "redis", name: "1. Redis stopped and restarted", run: redisScenario },
  { id: "postgres", name: "2. Postgres restarted under inbound load", run: postgresScenario },
  { id: "worker", name: "3. Worker SIGKILLed mid-delivery", waits: true, run: workerKillScenario },
  { id: "hostile", name: "4. Hostile inputs", run: hostileScenario },
  { id: "hostile-results", name: "5. Hostile function results", run: hostileResultsScenario },
  { id: "broadcast-crash", name: "6. Broadcast: worker SIGKILLed twice", run: broadcastCrashScenario },
  // Judges counts (lost, twice, 429s), no latency; most of it is waiting for pg-boss to hand back the killed worker's jobs.
  { id: "multi", name: "7. 2 web + 2 workers: kills and SIGTERM", waits: true, run: multiProcessScenario },
];

const started = Date.now();
function log(message: string): void {
  console.log(`[faults ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${message}`);
}

const tmp = mkdtempSync(path.join(os.tmpdir(), "svc-faults-"));
const logDir = mkdtempSync(path.join(os.tmpdir(), "svc-faults-logs-"));
const cleanups = cleanupStack("faults", () => {
  if (process.env.SVC_FAULTS_KEEP === "1") log(`kept ${tmp} (SVC_FAULTS_KEEP=1)`);
  else rmSync(tmp, { recursive: true, force: true });
});
const cleanup = () => cleanups.run();

async function main(): Promise<ScenarioResult[]> {
  const only = (process.env.SVC_FAULTS_ONLY ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = only.filter((id) => !SCENARIOS.some((s) => s.id === id));
  if (unknown.length) throw new Error(`SVC_FAULTS_ONLY: unknown scenario ${unknown.join(", ")} (known: ${SCENARIOS.map((s) => s.id).join(", ")})`);
  const part = process.env.SVC_FAULTS_PART ?? "";
  if (part && part !== "waiting" && part !== "timed") throw new Error(`SVC_FAULTS_PART: "${part}" is neither "waiting" nor "timed"`);
  const chosen = SCENARIOS.filter((scenario) => (!only.length || only.includes(scenario.id)) && (!part || (part === "waiting") === (scenario.waits === true)));
  log(`scenarios: ${chosen.map((scenario) => scenario.id).join(", ") || "none"}`);
  log(`process logs: ${logDir}`);
  await ensureBuild(log);

  const pg = await PrivatePostgres.start(tmp);
  cleanups.push(() => pg.stop());
  log(`private Postgres on 127.0.0.1:${pg.port} (data in ${pg.dir})`);
  const redis = await PrivateRedis.start();
  cleanups.push(() => redis.stop());
  log(`private Redis on 127.0.0.1:${redis.port}`);
  mkdirSync(path.join(tmp, "data"), { recursive: true });

  const token = `f-${randomBase62(6)}-`;
  const received: Delivered[] = [];
  const fast = await startReceiver({
    tokenPrefix: token,
    onDelivery: (arrival, body) => {
      if (arrival.event === "message.received" && received.length < MAX_RECEIVED) received.push({ ...arrival, body });
    },
  });
  cleanups.push(() => fast.close());
  const stack = new Stack({ tmp, logDir, pg, redis, log });
  cleanups.push(() => stack.stop());
  await stack.start();
  await stack.setWebhook(fast.url);
  await stack.joinTesters(TESTERS);
  const ctx: FaultContext = { stack, pg, redis, fast, received, token, log };

  const results: ScenarioResult[] = [];
  for (const scenario of chosen) {
    results.push(await runScenario(scenario.name, log, (r) => scenario.run(ctx, r)));
    // A scenario that left a process dead would fail every later one for the wrong reason.
    if (!stack.alive(stack.web)) throw new Error(`the web process is gone after "${scenario.name}":\n${stack.web.tail()}`);
    if (!stack.alive(stack.worker)) {
      log(`the worker is gone after "${scenario.name}": starting a new one for the next scenarios`);
      await stack.startWorker();
    }
    if (!redis.running) await redis.start();
  }
  return results;
}

const disarmWatchdog = guardRun("faults", WATCHDOG_MS, cleanup);

try {
  const results = await main();
  await cleanup();
  printSummary(results, Math.round((Date.now() - started) / 1000));
  console.log(`process logs: ${logDir}`);
  const failed = results.some((r) => r.failures.length > 0);
  console.log(failed ? "FAULTS: FAILED" : "FAULTS: PASSED");
  process.exitCode = failed ? 1 : 0;
} catch (error) {
  console.error(`[faults] failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
  console.error(`process logs: ${logDir}`);
  await cleanup();
  process.exitCode = 1;
} finally {
  disarmWatchdog();
}
// Nothing should be left running; do not let a stray handle hold CI.
process.exit(process.exitCode ?? 0);
