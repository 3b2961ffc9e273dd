/**
 * The system under fault: the PRODUCTION build served by `next start` (SVC_WORKER=off) plus one
 * `npm run worker` process (cli/worker.ts), both on the suite's private Postgres and Redis, with the
 * bootstrap project's webhook pointed at a loopback receiver. Also the suite's own window on the
 * database (`q`) and the small API / provider helpers every scenario uses.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { installPostgresWriteGuard } from "@/lib/ports/db/postgres-guard";
import { makeAgent, send, sendJson, sleep, waitUntil, type HttpAnswer, type HttpRequest } from "../../bench/load";
import { freePort, nextStartArgs, ROOT, runNode, spawnProc, stopProc, type Proc } from "../../bench/procs";
import { providerTextDelivery, SANDBOX_CHANNEL, SANDBOX_SENDER, sandboxNumber, type SandboxNumber } from "../../bench/provider-inbound";
import { randomBase62 } from "../../bench/env";
import type { PrivatePostgres, PrivateRedis } from "./services";

export const API_VERSION = "2026-06-18";

/** The production build to serve: SVC_FAULTS_DIST_DIR (default `.next`, which CI's Playwright stage just built). */
export function distDir(): string {
  return process.env.SVC_FAULTS_DIST_DIR || ".next";
}

function hasProductionBuild(dir: string): boolean {
  return existsSync(path.join(ROOT, dir, "BUILD_ID"));
}

/** Builds into distDir() only when it holds no production build (or SVC_FAULTS_BUILD=1). */
export async function ensureBuild(log: (m: string) => void): Promise<void> {
  const dir = distDir();
  if (hasProductionBuild(dir) && process.env.SVC_FAULTS_BUILD !== "1") {
    log(`reusing the production build in ${dir}/ (BUILD_ID ${readFileSync(path.join(ROOT, dir, "BUILD_ID"), "utf8").trim()}; SVC_FAULTS_BUILD=1 rebuilds)`);
    return;
  }
  log(`next build into ${dir}/ (several minutes) …`);
  const t = Date.now();
  await runNode(
    [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"],
    { ...process.env, SVC_NEXT_DIST_DIR: dir, NEXT_TELEMETRY_DISABLED: "1" },
    15 * 60_000,
  );
  log(`built in ${Math.round((Date.now() - t) / 1000)} s`);
}

export interface StackOptions {
  tmp: string;
  logDir: string;
  pg: PrivatePostgres;
  redis: PrivateRedis;
  log: (m: string) => void;
}

export class Stack {
  readonly key = `svc_live_${randomBase62(32)}`;
  readonly auth = { authorization: `Bearer ${this.key}` };
  readonly agent = makeAgent(256);
  /** The suite's own connection to the private database: queries run only through `q` (retried across restarts). */
  readonly sql: postgres.Sql;
  web!: Proc;
  worker!: Proc;
  workerStarts = 0;
  base = "";
  projectId = "";
  sandbox!: SandboxNumber;
  testers: string[] = [];
  /** The testers' conversations (POST /messages on the sandbox replies in one). */
  conversations: string[] = [];
  private nextConversation = 0;
  private env: NodeJS.ProcessEnv = { ...process.env };

  constructor(readonly o: StackOptions) {
    // The suite's own postgres-js client lives through the restarts too.
    installPostgresWriteGuard();
    this.sql = postgres(o.pg.url, { max: 2, onnotice: () => {}, connect_timeout: 3, idle_timeout: 5 });
  }

  /** A query on the private database, retried (bounded) while the server restarts. */
  async q<T extends object = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.sql.unsafe(text, params as postgres.ParameterOrJSON<never>[])) as unknown as T[];
      } catch (error) {
        if (attempt >= 10) throw error;
        await sleep(500);
      }
    }
  }

  async start(): Promise<void> {
    const port = await freePort();
    this.base = `http://127.0.0.1:${port}`;
    this.env = {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      SVC_NEXT_DIST_DIR: distDir(),
      PORT: String(port),
      DATABASE_URL: this.o.pg.url,
      REDIS_URL: this.o.redis.url,
      SVC_BOOTSTRAP_KEY: this.key,
      SVC_PUBLIC_URL: this.base,
      NEXTAUTH_URL: this.base,
      SVC_DATA_DIR: path.join(this.o.tmp, "data"),
      SVC_ENCRYPTION_KEY: randomBase62(43),
      // Production refuses loopback webhook targets; the suite's receivers are on 127.0.0.1.
      SVC_ALLOW_PRIVATE_NETWORK: "true",
      // The scenarios send inbound messages through /api/simulator/customer/messages (closed in production otherwise).
      SVC_SIMULATOR_PUBLIC: "true",
      SVC_SANDBOX_PARTICIPANT_CAP: "100",
      SVC_WORKER: "off",
    };
    // The built-in simulator is the provider (and serves the inbound media files).
    delete this.env.PROVIDER_GRAPH_URL;
    this.web = spawnProc("web", nextStartArgs(port), this.env, path.join(this.o.logDir, "web.log"));
    const ready = await waitUntil(
      async () => {
        if (!this.alive(this.web)) throw new Error(`next start exited ${this.web.child.exitCode}:\n${this.web.tail()}`);
        const r = await send(undefined, { method: "GET", url: `${this.base}/api/v1/identity`, headers: this.auth, timeoutMs: 3000 }).catch(() => null);
        return r?.status === 200 ? r : null;
      },
      120_000,
      250,
    );
    if (!ready) throw new Error(`next start did not answer within 120 s:\n${this.web.tail()}`);
    this.projectId = (JSON.parse(ready.body) as { project: { id: string } }).project.id;
    this.o.log(`web (next start, ${distDir()}) up on ${this.base}, pid ${this.web.pid}; project ${this.projectId}`);
    await this.startWorker();
    const channel = await this.api<{ phone_number: string | null }>("GET", `/channels/${SANDBOX_CHANNEL}`);
    this.sandbox = sandboxNumber(channel.body.phone_number);
  }

  async startWorker(): Promise<void> {
    const proc = spawnProc(
      `worker${++this.workerStarts}`,
      ["--import", "tsx", "cli/worker.ts"],
      this.env,
      path.join(this.o.logDir, `worker-${this.workerStarts}.log`),
    );
    this.worker = proc;
    const up = await waitUntil(
      () => {
        if (!this.alive(proc)) throw new Error(`worker exited ${proc.child.exitCode}:\n${proc.tail()}`);
        return proc.printed("running jobs") ? true : null;
      },
      90_000,
      100,
    );
    if (!up) throw new Error(`worker did not start within 90 s:\n${proc.tail()}`);
    this.o.log(`worker ${this.workerStarts} (npm run worker) up, pid ${proc.pid}`);
  }

  /** How many times `re` (global) matches in the web and worker logs so far (`only`: "web" or "worker"). */
  logCount(re: RegExp, only?: "web" | "worker"): number {
    let n = 0;
    for (const file of readdirSync(this.o.logDir)) {
      if (!file.endsWith(".log") || (only && !file.startsWith(only))) continue;
      n += (readFileSync(path.join(this.o.logDir, file), "utf8").match(re) ?? []).length;
    }
    return n;
  }

  /** The environment the stack's processes run with, plus `extra` (the multi-process scenario's own processes). */
  processEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return { ...this.env, ...extra };
  }

  alive(proc: Proc): boolean {
    return proc.child.exitCode === null && proc.child.signalCode === null;
  }

  async stop(): Promise<void> {
    if (this.worker) await stopProc(this.worker);
    if (this.web) await stopProc(this.web);
    this.agent.destroy();
    await this.sql.end({ timeout: 2 }).catch(() => {});
  }

  /** An /api/v1 call with the bootstrap key; the body is parsed JSON when it is JSON. */
  api<T = Record<string, unknown>>(
    method: string,
    apiPath: string,
    json?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: T }> {
    return sendJson<T>(this.agent, {
      method,
      url: `${this.base}/api/v1${apiPath}`,
      headers: { ...this.auth, ...headers },
      ...(json !== undefined ? { json } : {}),
      timeoutMs: 15_000,
    });
  }

  /** A conversation no send used yet (pair pacing allows one new message per 6 s per recipient). */
  freshConversation(): string {
    const id = this.conversations[this.nextConversation++ % this.conversations.length];
    if (!id) throw new Error("no conversations: joinTesters first");
    return id;
  }

  /** Any request to the stack (loopback only), with the body parsed when it is JSON. */
  async call(req: HttpRequest): Promise<HttpAnswer & { json: unknown }> {
    const answer = await send(this.agent, { timeoutMs: 15_000, ...req });
    let json: unknown = null;
    try {
      json = JSON.parse(answer.body);
    } catch {
      /* not JSON */
    }
    return { ...answer, json };
  }

  async setWebhook(url: string): Promise<void> {
    const r = await this.api("PATCH", `/projects/${this.projectId}`, { webhook_url: url });
    if (r.status !== 200) throw new Error(`PATCH webhook_url: ${r.status} ${JSON.stringify(r.body)}`);
  }

  /** A signed customer text from the provider (the same bytes on every resend). */
  inbound(from: string, text: string): { id: string; request: HttpRequest } {
    return providerTextDelivery(this.base, this.sandbox, from, text);
  }

  /** Asks the simulator to act as the customer (it signs and POSTs the provider webhook to us). */
  async customer(body: Record<string, unknown>): Promise<{ message_id: string }> {
    const r = await sendJson<{ message_id: string; delivered_status: number | null }>(this.agent, {
      method: "POST",
      url: `${this.base}/api/simulator/customer/messages`,
      json: { platform: "PLATFORM_A", sender_id: SANDBOX_SENDER, ...body },
      timeoutMs: 30_000,
    });
    if (r.status !== 200 || r.body.delivered_status !== 200) throw new Error(`simulator customer message: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  /** `count` sandbox testers send "join <code>" and become the project's participants. */
  async joinTesters(count: number): Promise<void> {
    const project = await this.api<{ join_code: string }>("GET", `/projects/${this.projectId}`);
    // Numbers end in 1: PLATFORM_A recipients ending in 0000 are the simulator's undeliverable ones.
    this.testers = Array.from({ length: count }, (_, i) => `1555${String(i).padStart(6, "0")}1`);
    for (const from of this.testers) await this.customer({ from, type: "text", text: `join ${project.body.join_code}` });
    const joined = await waitUntil(
      async () => {
        const [row] = await this.q<{ n: string }>("select count(*) as n from sandbox_participants where project_id = $1", [this.projectId]);
        return Number(row!.n) >= count ? true : null;
      },
      60_000,
      250,
    );
    if (!joined) throw new Error(`the ${count} sandbox testers did not all join within 60 s`);
    this.conversations = (await this.q<{ id: string }>("select id from conversations where project_id = $1 order by id", [this.projectId])).map((r) => r.id);
    if (this.conversations.length < count) throw new Error(`only ${this.conversations.length} conversations for ${count} testers`);
    this.o.log(`${count} sandbox testers joined the project`);
  }
}
