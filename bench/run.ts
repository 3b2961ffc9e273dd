/**
 * `npm run bench`: throughput and latency of the send, ingest and deliver paths on a production build
 * against real Postgres (and Redis when it answers), loopback only, every loop bounded in count and
 * time. Shape: `next start` with SVC_WORKER=off plus one `npm run worker` process (production).
 *
 *   1. build (unless BENCH_SKIP_BUILD=1); fresh database svc_bench_<pid>; plan "bench" via the CLI
 *   2. sandbox testers join through the simulator (one conversation each)
 *   3. closed loop at 50 connections: floor (GET /api/v1/nope, the router's 404), GET /limits
 *      hosted functions: invoke overhead over GET /limits, trivial invocations/s beside a heavy one (bench/functions.ts)
 *   4. inbound → webhook latency at a fixed rate (open loop through the simulator's customer endpoint)
 *   5. webhook deliveries/s draining a backlog: alone, then beside a project whose receiver sleeps 10 s
 *      keyword → automated reply reaching the simulator at a fixed rate of new conversations (bench/automations.ts)
 *      config apply of 100 flows and 200 automations, then the same document again (bench/config.ts)
 *      broadcasts of 1,000 and 100,000 recipients at 1,000 messages/s: send rate and worker RSS (bench/broadcasts.ts)
 *   6. POST /messages (distinct conversations and idempotency keys; provider jobs run via the simulator)
 *   7. cluster: POST /messages and inbound → webhook again with a second web process and a second
 *      worker, the load round robin over both (bench/cluster.ts; BENCH_ONLY=cluster: set-up, the two
 *      rows with 1 + 1, then with 2 + 2)
 *   8. peak RSS of web and worker; the table; bench/results/<timestamp>.json
 * BENCH_ONLY=functions: the bootstrap's project and key, then only the hosted-function phases of step 3.
 */
import { cleanupStack, guardRun } from "./run-guard";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { Redis } from "ioredis";
import { benchConfig, log, machine, markStart, randomBase62 } from "./env";
import { standInForAutovacuum } from "./autovacuum";
import { closedLoop, makeAgent, pool, send, sendJson, sleep, waitUntil, type HttpRequest } from "./load";
import { startReceiver } from "./receiver";
import { CpuMeter, freePort, nextStartArgs, ROOT, RssSampler, runNode, spawnProc, stopProc, waitForLine, waitForWeb, type Proc } from "./procs";
import { round } from "./stats";
import { printTable, type Measured, type PhaseFn, type PhaseRecord, type Results } from "./report";
import { inboundRow, loopRow, postMessagesRow, type MeasuredLoop, type RowContext, type Shape } from "./rows";
import { benchCluster, SecondPair } from "./cluster";
import { benchFunctions } from "./functions";
import { benchAutomations } from "./automations";
import { benchConfigAsCode } from "./config";
import { benchBroadcasts } from "./broadcasts";
import { benchGrowth, GROWTH_WATCHDOG_MS } from "./growth";
import type { BenchProject } from "./project";
import { simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import { describePauses, pausesBetween, scrapeWeb } from "./web-pauses";
import { providerTextDelivery, SANDBOX_CHANNEL, SANDBOX_SENDER, sandboxNumber } from "./provider-inbound";

const WATCHDOG_MS = 18 * 60_000;
/** The web's SVC_METRICS_TOKEN for this run (bench/web-pauses.ts). */
const metricsToken = randomBase62(32);
/** Issue 35 states the inbound → webhook target at this share of the floor's rate. */
const INBOUND_SHARE_OF_FLOOR = 0.3;

const config = benchConfig();
const runId = `${process.pid}${randomBase62(4)}`;
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const resultsDir = path.join(ROOT, "bench", "results");
const tmp = mkdtempSync(path.join(os.tmpdir(), "svc-bench-"));
const logDir = path.join(resultsDir, `${stamp}-logs`);
const dbName = `svc_bench_${process.pid}`;
const key = `svc_live_${randomBase62(32)}`;

const cleanups = cleanupStack("bench");
const cleanup = () => cleanups.run();

/** Phase windows (epoch ms), reported relative to the web's and the current worker's start for profiles. */
const phases: PhaseRecord[] = [];
let webSpawnedAt = 0;
let workerSpawnedAt = 0;
let cpu: CpuMeter | null = null;
/** The run's memory sampler, once the processes exist: each phase records the web's peak so far, so the phase that raised it shows. */
let memory: RssSampler | null = null;
/** How long the autovacuum stand-in worked inside a window (epoch ms), once it runs (bench/autovacuum.ts). */
let standInOverlapMs: ((start: number, end: number) => number) | null = null;
const phase: PhaseFn = async (name, run, operations) => {
  const start = Date.now();
  const before = cpu?.snapshot() ?? null;
  let counted: number | null = null;
  try {
    const result = await run();
    if (operations) counted = operations(result);
    return result;
  } finally {
    const end = Date.now();
    const after = before && cpu ? cpu.snapshot() : null;
    const cores = before && after ? CpuMeter.cores(before, after, (end - start) / 1000) : null;
    const cpuMsPerOp = before && after && counted ? CpuMeter.msPerOperation([[before, after]], counted) : null;
    memory?.sample();
    const webPeakMiB = memory?.peakOf("web")?.peakMiB ?? null;
    const standInS = standInOverlapMs ? Math.round(standInOverlapMs(start, end) / 100) / 10 : 0;
    if (cores)
      log(
        `${name}: cores used ${Object.entries(cores)
          .map(([role, n]) => `${role} ${n.toFixed(2)}`)
          .join(", ")}${
          cpuMsPerOp
            ? `; CPU ms per operation (${counted}) ${Object.entries(cpuMsPerOp)
                .map(([role, n]) => `${role} ${n}`)
                .join(", ")}`
            : ""
        }${webPeakMiB === null ? "" : `; web peak RSS so far ${webPeakMiB} MiB`}${standInS > 0 ? `; the autovacuum stand-in worked ${standInS} s of it` : ""}`,
      );
    const rel = (t: number, origin: number) => Math.round((t - origin) / 100) / 10;
    phases.push({
      name,
      start,
      end,
      webS: [rel(start, webSpawnedAt), rel(end, webSpawnedAt)],
      workerS: workerSpawnedAt ? [rel(start, workerSpawnedAt), rel(end, workerSpawnedAt)] : null,
      cores,
      operations: counted,
      cpuMsPerOp,
      webPeakMiB,
      standInS,
    });
  }
};

function loopbackUrl(url: string, what: string): URL {
  const parsed = new URL(url);
  if (!["127.0.0.1", "localhost"].includes(parsed.hostname)) throw new Error(`${what} must be on loopback (127.0.0.1), not ${parsed.hostname}`);
  parsed.hostname = "127.0.0.1";
  return parsed;
}

async function main(): Promise<Results> {
  markStart();
  const wall = performance.now();
  mkdirSync(logDir, { recursive: true });
  const profDir = path.join(resultsDir, `prof-${stamp}`);
  if (config.cpuProf) mkdirSync(profDir, { recursive: true });

  // ── 1. build, database, Redis, plan ────────────────────────────────────────────────────────────
  if (!config.skipBuild) {
    log("next build …");
    const t = performance.now();
    await runNode([path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], { ...process.env, NEXT_TELEMETRY_DISABLED: "1" }, 300_000);
    log(`built in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  } else {
    log("BENCH_SKIP_BUILD=1: using the existing .next build");
  }

  const pgBase = loopbackUrl(config.postgresUrl, "BENCH_POSTGRES_URL");
  const adminUrl = new URL(pgBase.href);
  adminUrl.pathname = "/postgres";
  const admin = postgres(adminUrl.href, { max: 1, onnotice: () => {} });
  cleanups.push(() => admin.end({ timeout: 5 }));
  const [{ version: pgVersion }] = (await admin`select version()`) as unknown as [{ version: string }];
  await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
  await admin.unsafe(`create database "${dbName}"`);
  // Diagnostics: every statement of this database, with its duration, in the Postgres server log.
  if (process.env.BENCH_PG_LOG_STATEMENTS === "1") await admin.unsafe(`alter database "${dbName}" set log_min_duration_statement = 0`);
  cleanups.push(async () => {
    if (process.env.BENCH_KEEP_DB === "1") return log(`kept database ${dbName} (BENCH_KEEP_DB=1)`);
    await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
    log(`dropped database ${dbName}`);
  });
  const dbUrl = new URL(pgBase.href);
  dbUrl.pathname = `/${dbName}`;
  log(`database ${dbName} created (${pgVersion.split(" on ")[0]})`);

  let redisUrl: string | null = null;
  let redisVersion: string | null = null;
  if (config.redisUrl !== "off") {
    const url = loopbackUrl(config.redisUrl, "BENCH_REDIS_URL");
    const redis = new Redis(url.href, {
      lazyConnect: true,
      connectTimeout: 1000,
      maxRetriesPerRequest: 1,
      retryStrategy: () => null,
      enableOfflineQueue: false,
    });
    redis.on("error", () => {});
    try {
      await redis.connect();
      await redis.flushdb();
      redisVersion = /redis_version:(\S+)/.exec(await redis.info("server"))?.[1] ?? "?";
      redisUrl = url.href;
      log(`Redis ${redisVersion} at ${url.href} (database flushed)`);
      cleanups.push(async () => {
        const again = new Redis(url.href, { connectTimeout: 1000, maxRetriesPerRequest: 1, retryStrategy: () => null });
        again.on("error", () => {});
        await again.flushdb().catch(() => {});
        again.disconnect();
      });
    } catch {
      log("Redis does not answer: running without REDIS_URL (in-process limiter)");
    } finally {
      redis.disconnect();
    }
  }

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const appEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    DATABASE_URL: dbUrl.href,
    SVC_BOOTSTRAP_KEY: key,
    SVC_PUBLIC_URL: base,
    SVC_DATA_DIR: tmp,
    SVC_ENCRYPTION_KEY: randomBase62(43),
    // Production refuses loopback webhook targets; the bench's receivers are on 127.0.0.1.
    SVC_ALLOW_PRIVATE_NETWORK: "true",
    // BENCH_SIMULATOR=in-app acts as customers through the app's /api/simulator (closed in production otherwise).
    SVC_SIMULATOR_PUBLIC: "true",
    SVC_SANDBOX_PARTICIPANT_CAP: "100000",
    SVC_WORKER: "off",
    // GET /metrics, scraped around each closed-loop phase for the web's pauses (bench/web-pauses.ts).
    SVC_METRICS_TOKEN: metricsToken,
  };
  delete appEnv.PROVIDER_GRAPH_URL;
  // The provider simulator: its own process (the app then talks to it as to a real provider, with the
  // simulator's documented app secrets), or the app's built-in one.
  const simPort = config.simulator === "process" ? await freePort() : null;
  const sim = simPort ? `http://127.0.0.1:${simPort}` : `${base}/api/simulator`;
  if (simPort) {
    appEnv.PROVIDER_GRAPH_URL = `${sim}/graph`;
    for (const platform of ["PLATFORM_A", "PLATFORM_B", "PLATFORM_C"] as const) appEnv[`${platform}_APP_SECRET`] = simulatorAppSecret(platform);
  } else {
    for (const platform of ["PLATFORM_A", "PLATFORM_B", "PLATFORM_C"] as const) delete appEnv[`${platform}_APP_SECRET`];
  }
  if (redisUrl) appEnv.REDIS_URL = redisUrl;
  else delete appEnv.REDIS_URL;
  // --cpu-prof is refused in NODE_OPTIONS: it goes on the command line of the web and worker processes.
  const prof = [...(config.cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : []), ...config.nodeFlags];
  const cliEnv: NodeJS.ProcessEnv = { ...appEnv };

  const sql = postgres(dbUrl.href, { max: 2, onnotice: () => {} });
  cleanups.push(() => sql.end({ timeout: 5 }));
  const cli = (...args: string[]) => runNode(["--import", "tsx", "cli/index.ts", ...args], cliEnv, 60_000);
  // The CLI migrates and bootstraps (SVC_BOOTSTRAP_KEY) the empty database, then sets the plan.
  log((await cli("plans", "set", "--id", "bench", "--requests", "100000000", "--window", "60", "--monthly", "2000000000")).trim());
  const [org] = await sql<{ id: string }[]>`select id from organizations order by id limit 1`;
  if (!org) throw new Error("bootstrap created no organization");
  log((await cli("orgs", "set-plan", "--org", org.id, "--plan", "bench")).trim());
  const maintenance = postgres(dbUrl.href, { max: 1, onnotice: () => {} });
  // BENCH_AUTOVACUUM_STAND_IN=0 leaves a server without autovacuum as it is (to measure what the stand-in changes).
  const autovacuum = standInForAutovacuum(maintenance, log, process.env.BENCH_AUTOVACUUM_STAND_IN !== "0");
  standInOverlapMs = (start, end) => autovacuum.overlapMs(start, end);
  cleanups.push(async () => {
    const { vacuums, analyzes } = await autovacuum.stop();
    if (vacuums + analyzes > 0) log(`autovacuum's stand-in: ${vacuums} vacuums, ${analyzes} analyzes`);
    await maintenance.end({ timeout: 5 });
  });

  // ── 2. processes ──────────────────────────────────────────────────────────────────────────────
  const rss = new RssSampler();
  memory = rss;
  rss.start(500);
  cleanups.push(async () => rss.stop());
  let simulator: Proc | null = null;
  if (simPort) {
    const proc = spawnProc(
      "simulator",
      [...prof, "--import", "tsx", "cli/simulator.ts"],
      { ...appEnv, SVC_SIMULATOR_PORT: String(simPort) },
      path.join(logDir, "simulator.log"),
    );
    simulator = proc;
    cleanups.push(() => stopProc(proc));
    rss.track("simulator", proc.pid);
    const up = await waitForLine(proc, "listening on", 60_000);
    if (!up) throw new Error(`the simulator did not start within 60 s:\n${proc.tail()}`);
    log(`simulator up on ${sim} (pid ${proc.pid}); the app sends to it as to a real provider`);
  }
  webSpawnedAt = Date.now();
  const web = spawnProc("web", [...prof, ...nextStartArgs(port)], appEnv, path.join(logDir, "web.log"));
  cleanups.push(() => stopProc(web));
  rss.track("web", web.pid);
  const auth = { authorization: `Bearer ${key}` };
  const ready = await waitForWeb(web, base, auth);
  log(`web up on ${base} (pid ${web.pid})`);
  // The provider throughput of the shared sandbox number is not what the send phase measures: the
  // simulator would hold its provider jobs to the default 80 messages/s (130429) otherwise.
  const raised = await sendJson(undefined, {
    method: "POST",
    url: `${sim}/control/numbers/throughput`,
    json: { phone_number_id: SANDBOX_SENDER, messages_per_second: 10_000 },
  });
  if (raised.status !== 200) throw new Error(`simulator throughput: ${raised.status} ${JSON.stringify(raised.body)}`);

  let worker: Proc | null = null;
  let workerStarts = 0;
  async function startWorker(): Promise<void> {
    workerSpawnedAt = Date.now();
    const proc = spawnProc("worker", [...prof, "--import", "tsx", "cli/worker.ts"], appEnv, path.join(logDir, "worker.log"));
    worker = proc;
    workerStarts++;
    rss.track("worker", proc.pid);
    if (!(await waitForLine(proc, "running jobs", 60_000))) throw new Error(`worker did not start within 60 s:\n${proc.tail()}`);
  }
  const workerPid = (): number | null => (worker as Proc | null)?.pid ?? null;
  async function stopWorker(): Promise<void> {
    if (worker) await stopProc(worker);
    worker = null;
  }
  cleanups.push(() => stopWorker());
  // The cluster phase's second web process and worker (bench/cluster.ts) count in the same roles.
  const second = new SecondPair({ appEnv, prof, logDir, rss, log });
  cleanups.push(() => second.stop());
  cpu = new CpuMeter(() => ({
    web: [web.pid, ...second.webPids()],
    worker: [...(worker ? [worker.pid] : []), ...second.workerPids()],
    ...(simulator ? { simulator: [simulator.pid] } : {}),
  }));
  await startWorker();
  log("worker up");

  const agent = makeAgent(config.connections);
  const small = makeAgent(64);
  cleanups.push(async () => {
    agent.destroy();
    small.destroy();
  });

  // 1,000 then 100,000 recipients on a number the simulator lets send 1,000/s, in their own project
  // without a webhook: the phase measures sending and status callbacks, not the 300,000
  // message.status deliveries a receiver would get.
  async function broadcastPhase() {
    const p3 = (await sendJson<{ id: string }>(small, { method: "POST", url: `${base}/api/v1/projects`, headers: auth, json: { name: "bench broadcasts" } }))
      .body.id;
    const key3 = (await cli("keys", "create", "--project", p3, "--scopes", "*")).split("\n")[0]!.trim();
    return benchBroadcasts({
      base,
      simulator: sim,
      auth: { authorization: `Bearer ${key3}` },
      agent: small,
      sql,
      projectId: p3,
      organizationId: org!.id,
      runId,
      workerPid: () => workerPid(),
      restartWorker: async () => {
        await stopWorker();
        await startWorker();
      },
      large: config.broadcastRecipients,
      log,
      phase,
    });
  }
  /** The results file: what every run has, and the rows of the phases this run measured. */
  const resultsOf = (measured: Measured): Results => {
    rss.sample();
    const mem = (role: string) => rss.peakOf(role);
    return {
      when: new Date().toISOString(),
      machine: { ...machine(), postgres: pgVersion.split(" on ")[0]!, redis: redisVersion },
      config: {
        ...config,
        shape: "next start (SVC_WORKER=off) + 1 worker (npm run worker)",
        loadGenerator: "bench/load.ts (node:http keep-alive, closed loop)",
      },
      ...measured,
      memory: { web: mem("web"), worker: mem("worker"), workerStarts, ...(simulator ? { simulator: mem("simulator") } : {}) },
      phases,
      totalSeconds: round((performance.now() - wall) / 1000, 0)!,
    };
  };
  if (config.only === "broadcasts") return resultsOf({ broadcasts: await broadcastPhase() });

  const identity = JSON.parse(ready.body) as { project: { id: string }; organization: { id: string }; plan: string };
  const p1 = identity.project.id;
  const project1: BenchProject = { base, simulator: sim, auth, agent: small, sql, projectId: p1 };
  const p1Row = await sendJson<{ join_code: string }>(small, { method: "GET", url: `${base}/api/v1/projects/${p1}`, headers: auth });
  // Hosted functions alone: the bootstrap's project and key, no testers (bench/functions.ts).
  if (config.only === "functions")
    return resultsOf({ functions: await benchFunctions({ base, auth, agent, durationMs: config.durationS * 1000, log, phase }) });
  if (config.only === "growth")
    return resultsOf({
      growth: await benchGrowth({
        ...project1,
        organizationId: org.id,
        joinCode: p1Row.body.join_code,
        runId,
        appEnv,
        requests: config.growthRequests,
        log,
        phase,
      }),
    });
  const created = await sendJson<{ id: string; join_code: string }>(small, {
    method: "POST",
    url: `${base}/api/v1/projects`,
    headers: auth,
    json: { name: "bench slow receiver" },
  });
  if (created.status !== 200) throw new Error(`POST /projects: ${created.status} ${JSON.stringify(created.body)}`);
  const p2 = created.body.id;
  const key2 = (await cli("keys", "create", "--project", p2, "--scopes", "*")).split("\n")[0]!.trim();
  const auth2 = { authorization: `Bearer ${key2}` };
  log(`project ${p1} (plan ${identity.plan}), second project ${p2}`);

  const fast = await startReceiver({ tokenPrefix: `lat-${runId}-` });
  const slow = await startReceiver({ delayMs: config.slowDelayMs });
  cleanups.push(() => fast.close());
  cleanups.push(() => slow.close());

  // ── 3. sandbox testers ────────────────────────────────────────────────────────────────────────
  const customer = (from: string, text: string, via = small) =>
    sendJson<{ delivered_status: number | null }>(via, {
      method: "POST",
      url: `${sim}/customer/messages`,
      json: { platform: "PLATFORM_A", sender_id: SANDBOX_SENDER, from, type: "text", text },
      timeoutMs: 30_000,
    }).then((r) => {
      if (r.status !== 200 || r.body.delivered_status !== 200) throw new Error(`simulator customer message: ${r.status} ${JSON.stringify(r.body)}`);
    });
  // Numbers end in 1: PLATFORM_A recipients ending in 0000 are the simulator's undeliverable ones.
  const tester = (project: 1 | 2, i: number) => `155${project + 5}${String(i).padStart(7, "0")}1`;
  const P2_TESTERS = 20;
  // Set-up, not a measurement: a helper drains the join's ingest jobs through the product's own
  // JobQueue.drain in parallel lanes (bench/drain-jobs.ts), beside the real worker.
  const helper = spawnProc("drain-jobs", ["--import", "tsx", "bench/drain-jobs.ts", "4", "300"], appEnv, path.join(logDir, "drain-jobs.log"));
  cleanups.push(() => stopProc(helper));
  await waitForLine(helper, "ready", 60_000);
  const joinStarted = performance.now();
  let joinFailures = 0;
  let joinError: string | null = null;
  // The second project's testers first, then as many of the first project's as the time bound allows.
  const joinSent = await phase("joins (set-up)", () =>
    pool(config.testers + P2_TESTERS, 16, config.joinSendS * 1000, async (i) => {
      const [from, code] = i < P2_TESTERS ? [tester(2, i), created.body.join_code] : [tester(1, i - P2_TESTERS), p1Row.body.join_code];
      await customer(from, `join ${code}`).catch((error: unknown) => {
        joinFailures++;
        joinError ??= error instanceof Error ? error.message : String(error);
      });
    }),
  );
  const joinSentS = (performance.now() - joinStarted) / 1000;
  log(
    `${joinSent} joins sent through the simulator in ${joinSentS.toFixed(1)} s (${(joinSent / joinSentS).toFixed(0)}/s, ${joinFailures} failed${joinError ? `: ${joinError}` : ""}); waiting for ingest`,
  );
  const participants = async (project: string) =>
    Number((await sql<{ n: string }[]>`select count(*) as n from sandbox_participants where project_id = ${project}`)[0]!.n);
  const expectP1 = Math.max(0, joinSent - P2_TESTERS - joinFailures);
  await waitUntil(async () => ((await participants(p1)) >= expectP1 && (await participants(p2)) >= P2_TESTERS ? true : null), 60_000, 500);
  const joinS = (performance.now() - joinStarted) / 1000;
  await stopProc(helper);
  const joinedP1 = await participants(p1);
  log(`${joinedP1 + (await participants(p2))} testers joined in ${joinS.toFixed(1)} s (${(joinSent / joinS).toFixed(0)} joins/s end to end)`);
  const setup = {
    testers: joinedP1,
    joinSeconds: round(joinS)!,
    joinsPerSecond: round(joinSent / joinS, 0)!,
    simulatorJoinsPerSecond: round(joinSent / joinSentS, 0)!,
  };
  if (joinedP1 < 100) throw new Error(`only ${joinedP1} testers joined the first project: too few to measure POST /messages`);
  // A running server's autovacuum has seen the set-up's rows by now; without this pass the first
  // phases measured statements planned on empty tables (bench/autovacuum.ts passNow).
  await autovacuum.passNow();
  const conversations = (await sql<{ id: string }[]>`select id from conversations where project_id = ${p1} order by id`).map((r) => r.id);

  /** What the database's sessions are doing, sampled every 250 ms during a phase (diagnostics). */
  async function sampleActivity<T>(run: () => Promise<T>): Promise<{ result: T; activity: { what: string; share: number }[] }> {
    const counts = new Map<string, number>();
    let samples = 0;
    let stop = false;
    const sampler = (async () => {
      for (let i = 0; i < 2400 && !stop; i++) {
        const rows = await sql<{ what: string }[]>`
          select coalesce(state, '?') || ' | ' || coalesce(wait_event_type || ':' || wait_event, 'cpu') || ' | ' || left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 70) as what
          from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`;
        samples++;
        for (const r of rows) counts.set(r.what, (counts.get(r.what) ?? 0) + 1);
        await sleep(250);
      }
    })();
    try {
      const result = await run();
      return {
        result,
        activity: [...counts.entries()]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 12)
          .map(([what, n]) => ({ what, share: round(n / Math.max(1, samples), 2)! })),
      };
    } finally {
      stop = true;
      await sampler;
    }
  }

  // ── 4. floor and GET /limits ──────────────────────────────────────────────────────────────────
  /** Warm-up, then the measured run; `make` hands out requests across both (null: none left). */
  async function measure(name: string, make: () => HttpRequest | null, okStatus: number, warmupMax = 100_000): Promise<MeasuredLoop> {
    const opts = { agent, connections: config.connections, next: make, okStatus };
    const warmup = config.warmupS > 0 ? await closedLoop({ ...opts, durationMs: config.warmupS * 1000, maxRequests: warmupMax }) : null;
    // The web's collections over the measured run only: a scrape on each side of it, their difference.
    const pausesBefore = await scrapeWeb(base, metricsToken);
    const result = await phase(
      name,
      () => closedLoop({ ...opts, durationMs: config.durationS * 1000, maxRequests: 10_000_000 }),
      (r) => r.requests,
    );
    const pausesAfter = pausesBefore ? await scrapeWeb(base, metricsToken) : null;
    const webPauses = pausesBefore && pausesAfter ? pausesBetween(pausesBefore, pausesAfter) : null;
    log(
      `${name}: ${result.rps.toFixed(0)} req/s, p50 ${result.latency.p50?.toFixed(1)} ms, p99 ${result.latency.p99?.toFixed(1)} ms (${result.ok}/${result.requests} ok${result.firstError ? `; first error ${result.firstError}` : ""})${webPauses ? `; web: ${describePauses(webPauses)}` : ""}; bench: timer late ${result.generator.timerLateMaxMs} ms at ${result.generator.timerLateAtMs} ms, GC max ${result.generator.gcMaxMs} ms`,
    );
    return { ...result, warmupOk: warmup?.ok ?? 0, webPauses };
  }
  const clusterOnly = config.only === "cluster";
  const deliveriesOnly = config.only === "deliveries";
  const automationsOnly = config.only === "automations";
  const floor = clusterOnly || automationsOnly ? null : await measure("floor GET /api/v1/nope", () => ({ method: "GET", url: `${base}/api/v1/nope` }), 404);
  // Issue 35 states the inbound target at 30 % of the floor's rate: measured at that share of this run's floor.
  if (floor && config.inboundRateFromFloor) config.inboundRate = Math.ceil(floor.rps * INBOUND_SHARE_OF_FLOOR);
  const limits =
    clusterOnly || deliveriesOnly || automationsOnly
      ? null
      : await measure("GET /api/v1/limits", () => ({ method: "GET", url: `${base}/api/v1/limits`, headers: auth }), 200);
  // Hosted functions run in the web process's sandbox pool: measured here, before backlogs build up.
  const functions =
    clusterOnly || deliveriesOnly || automationsOnly ? null : await benchFunctions({ base, auth, agent, durationMs: config.durationS * 1000, log, phase });

  // ── 5. POST /messages ─────────────────────────────────────────────────────────────────────────
  // Measured on a quiet system, before the inbound and delivery phases leave backlogs behind, and with
  // the worker stopped so it does not share the two cores with the web process while the API is timed;
  // the worker then starts and the provider jobs are watched separately (bench/rows.ts).
  // The inbound rows' customer messages arrive as the provider sends them: the envelope the simulator
  // would build, signed with the simulator's app secret, POSTed straight to our webhook endpoint (the
  // provider's half of the work is not ours to time).
  const sandbox = await sendJson<{ phone_number: string | null }>(small, { method: "GET", url: `${base}/api/v1/channels/${SANDBOX_CHANNEL}`, headers: auth });
  const senderInfo = sandboxNumber(sandbox.body.phone_number);
  const providerWebhook = async (webBase: string, from: string, text: string, via: typeof small) => {
    const r = await send(via, { ...providerTextDelivery(webBase, senderInfo, from, text).request, timeoutMs: 30_000 });
    if (r.status !== 200) throw new Error(`provider webhook: ${r.status} ${r.body.slice(0, 200)}`);
  };
  const LAT_TESTERS = Math.min(50, conversations.length);
  const openAgent = makeAgent(256);
  cleanups.push(async () => openAgent.destroy());
  const rows: RowContext = {
    config,
    runId,
    sql,
    auth,
    projectId: p1,
    conversations,
    floorRps: floor?.rps ?? null,
    measure,
    sampleActivity,
    cpu: () => cpu!.snapshot(),
    fast,
    // Through the simulator's customer endpoint, the simulator POSTs to the first web process (its SVC_PUBLIC_URL).
    sendInbound: (webBase, token, i) =>
      config.inboundVia === "simulator"
        ? customer(tester(1, i % LAT_TESTERS), token, openAgent)
        : providerWebhook(webBase, tester(1, i % LAT_TESTERS), token, openAgent),
    providerAccepted: async () => {
      const r = await sendJson<{ accepted: number }>(small, { method: "GET", url: `${sim}/control/numbers/throughput?phone_number_id=${SANDBOX_SENDER}` });
      if (r.status !== 200) throw new Error(`simulator throughput: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.accepted;
    },
    log,
    phase,
  };
  const patchP1 = async (patch: Record<string, unknown>) => {
    const r = await sendJson(small, { method: "PATCH", url: `${base}/api/v1/projects/${p1}`, headers: auth, json: patch });
    if (r.status !== 200) throw new Error(`PATCH ${JSON.stringify(patch)}: ${r.status} ${JSON.stringify(r.body)}`);
  };
  // ── 7b. keyword → automated reply (the first project switches to FLOWS for this phase) ──────────
  // At issue 35's two rates, each on testers of its own (every message starts a new conversation).
  const keywordPhase = () =>
    benchAutomations({
      ...project1,
      sandboxSender: SANDBOX_SENDER,
      testers: Array.from({ length: joinedP1 }, (_, i) => tester(1, i)),
      rates: [config.automationRate, config.automationRateHigh].filter((rate) => rate > 0),
      seconds: config.inboundSeconds,
      warmupSeconds: config.automationWarmupS,
      waitS: config.waitS,
      runId,
      sendInbound: (from, text) => (config.inboundVia === "simulator" ? customer(from, text, openAgent) : providerWebhook(base, from, text, openAgent)),
      log,
      phase,
      sampleActivity,
    });
  if (automationsOnly) {
    await patchP1({ webhook_url: fast.url });
    return resultsOf({ setup, automations: await keywordPhase() });
  }

  const oneByOne: Shape = { suffix: "", tag: "1x1", bases: [base], startWorkers: startWorker, stopWorkers: stopWorker };
  const post = await postMessagesRow(rows, oneByOne);

  // ── 6. inbound → webhook latency at a fixed rate ──────────────────────────────────────────────
  await patchP1({ webhook_url: fast.url });
  const { row: inbound, since: inboundSince } = await inboundRow(rows, oneByOne);
  const clusterPhase = () => benchCluster({ pair: second, base, startWorker, stopWorker, patchProject: patchP1, webhookUrl: fast.url, rows, rss, log });
  if (clusterOnly) return resultsOf({ setup, messages: post, inbound, cluster: await clusterPhase() });

  // ── 7. webhook deliveries/s ───────────────────────────────────────────────────────────────────
  // A backlog is built while the worker is stopped (POST /webhook-deliveries/replay of the events the
  // inbound phase stored), then a fresh worker drains it: deliveries/s = arrivals at the receiver.
  async function replay(authHeaders: Record<string, string>, body: Record<string, unknown>): Promise<number> {
    const r = await sendJson<{ count: number }>(small, {
      method: "POST",
      url: `${base}/api/v1/webhook-deliveries/replay`,
      headers: authHeaders,
      json: body,
      timeoutMs: 180_000,
    });
    if (r.status !== 200) throw new Error(`replay: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.count;
  }
  async function drain(expected: number, label: string): Promise<{ expected: number; received: number; perSecond: number | null; seconds: number }> {
    fast.reset();
    const t = performance.now();
    await startWorker();
    const complete = await phase(
      label,
      () => waitUntil(() => (fast.arrivals.length >= expected ? true : null), config.waitS * 1000, 100),
      () => fast.arrivals.length,
    );
    const times = fast.arrivals.map((a) => a.at);
    // Complete: arrivals per second from the first to the last. Not complete within the bound: what
    // arrived, over the time from the first arrival to the end of the wait.
    const first = times.length ? Math.min(...times) : null;
    const span = first === null ? null : complete ? Math.max(...times) - first : Date.now() - first;
    const perSecond = span && times.length > 1 ? ((complete ? times.length - 1 : times.length) * 1000) / span : null;
    const result = { expected, received: times.length, perSecond: round(perSecond), seconds: round((performance.now() - t) / 1000)! };
    log(
      `${label}: ${result.received}/${expected} delivered${complete ? "" : ` (not all within ${config.waitS} s)`}, ${perSecond?.toFixed(0) ?? "n/a"} deliveries/s`,
    );
    return result;
  }
  await stopWorker();
  let backlog = 0;
  for (let copy = 0; copy < config.replayCopies; copy++) backlog += await replay(auth, { since: inboundSince.toISOString(), event: "message.received" });
  log(`backlog of ${backlog} deliveries for the fast receiver`);
  const alone = await drain(backlog, "deliveries alone");

  await stopWorker();
  const patch2 = await sendJson(small, { method: "PATCH", url: `${base}/api/v1/projects/${p2}`, headers: auth2, json: { webhook_url: slow.url } });
  if (patch2.status !== 200) throw new Error(`PATCH webhook_url (second project): ${patch2.status} ${JSON.stringify(patch2.body)}`);
  const slowBacklog = await replay(auth2, { since: new Date(0).toISOString() });
  let backlog2 = 0;
  for (let copy = 0; copy < config.replayCopies; copy++) backlog2 += await replay(auth, { since: inboundSince.toISOString(), event: "message.received" });
  log(`backlog of ${backlog2} deliveries for the fast receiver and ${slowBacklog} for the slow one (${config.slowDelayMs} ms each)`);
  const withSlow = await drain(backlog2, "deliveries beside a slow receiver");
  const slowSeen = slow.arrivals.length;
  const deliveries = { alone, withSlow: { ...withSlow, slowBacklog, slowReceived: slowSeen, slowDelayMs: config.slowDelayMs } };
  if (deliveriesOnly) return resultsOf({ setup, floor: loopRow(floor!, floor!.rps), messages: post, inbound, deliveries });

  // ── 7b. keyword → automated reply (keywordPhase above) ───────────────────────────────────────
  const automations = await keywordPhase();

  // The first project's automations are config-owned: this apply replaces them, so it runs after 7b.
  const configAsCode = await phase(
    "config apply",
    () => benchConfigAsCode({ base, auth, agent: small, log }),
    () => 1,
  );

  // ── 7c. broadcasts ───────────────────────────────────────────────────────────────────────────
  const broadcasts = await broadcastPhase();

  // ── 8. 2 web + 2 workers, then memory and results ──────────────────────────────────────────────
  const cluster = await clusterPhase();
  return resultsOf({
    setup,
    floor: loopRow(floor!, floor!.rps),
    limits: loopRow(limits!, floor!.rps),
    functions: functions!,
    messages: post,
    inbound,
    deliveries,
    automations,
    configAsCode,
    broadcasts,
    cluster,
  });
}

const disarmWatchdog = guardRun("bench", config.only === "growth" ? GROWTH_WATCHDOG_MS : WATCHDOG_MS, cleanup);

try {
  const results = await main();
  await cleanup();
  const file = path.join(resultsDir, `${stamp}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  printTable(results);
  console.log(`\nresults: ${path.relative(ROOT, file)}  (whole run ${results.totalSeconds} s)`);
} catch (error) {
  console.error(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
  await cleanup();
  process.exitCode = 1;
} finally {
  disarmWatchdog();
  rmSync(tmp, { recursive: true, force: true });
}
