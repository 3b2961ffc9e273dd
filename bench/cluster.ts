/**
 * The cluster phase of `npm run bench` (issue 36): a second `next start` (SVC_WORKER=off, another free
 * port; the same database, Redis and simulator) and a second `npm run worker` beside the first ones,
 * then the POST /api/v1/messages and inbound → webhook rows again (bench/rows.ts, as the 1 + 1 rows
 * ran) with the load round robin over both web processes. On a 2-core machine it is not faster: the
 * rows show what coordination costs per message, and that nothing breaks. The simulator's status
 * callbacks all go to the first web process (SVC_PUBLIC_URL): there is no balancer in front.
 */
import path from "node:path";
import { closedLoop, makeAgent, send, waitUntil } from "./load";
import { freePort, nextStartArgs, spawnProc, stopProc, waitForLine, type Proc, type RssSampler } from "./procs";
import type { ClusterBenchResult } from "./report";
import { inboundRow, postMessagesRow, type RowContext, type Shape } from "./rows";

interface SecondPairOptions {
  appEnv: NodeJS.ProcessEnv;
  /** --cpu-prof flags (BENCH_CPU_PROF=1), as the first processes have. */
  prof: string[];
  logDir: string;
  rss: RssSampler;
  log(line: string): void;
}

/** The second web process and the second worker; the run's cleanup stack stops them too (stop()). */
export class SecondPair {
  private web: Proc | null = null;
  private worker: Proc | null = null;
  base = "";

  constructor(private readonly o: SecondPairOptions) {}

  webPids(): number[] {
    return this.web ? [this.web.pid] : [];
  }

  workerPids(): number[] {
    return this.worker ? [this.worker.pid] : [];
  }

  async startWeb(): Promise<void> {
    const port = await freePort();
    this.base = `http://127.0.0.1:${port}`;
    const proc = spawnProc("web-2", [...this.o.prof, ...nextStartArgs(port)], { ...this.o.appEnv, PORT: String(port) }, path.join(this.o.logDir, "web-2.log"));
    this.web = proc;
    this.o.rss.track("web 2", proc.pid);
    const ready = await waitUntil(
      async () => {
        if (proc.child.exitCode !== null) throw new Error(`the second next start exited ${proc.child.exitCode}:\n${proc.tail()}`);
        const r = await send(undefined, { method: "GET", url: `${this.base}/readyz`, timeoutMs: 2000 }).catch(() => null);
        return r?.status === 200 ? true : null;
      },
      90_000,
      250,
    );
    if (!ready) throw new Error(`the second next start was not ready within 90 s:\n${proc.tail()}`);
    this.o.log(`second web process up on ${this.base} (pid ${proc.pid})`);
  }

  async startWorker(): Promise<void> {
    const proc = spawnProc("worker-2", [...this.o.prof, "--import", "tsx", "cli/worker.ts"], this.o.appEnv, path.join(this.o.logDir, "worker-2.log"));
    this.worker = proc;
    this.o.rss.track("worker 2", proc.pid);
    if (!(await waitForLine(proc, "running jobs", 60_000))) throw new Error(`the second worker did not start within 60 s:\n${proc.tail()}`);
  }

  async stopWorker(): Promise<void> {
    if (this.worker) await stopProc(this.worker);
    this.worker = null;
  }

  async stop(): Promise<void> {
    await this.stopWorker();
    if (this.web) await stopProc(this.web);
    this.web = null;
  }
}

interface ClusterOptions {
  pair: SecondPair;
  /** The first web process. */
  base: string;
  /** The first worker. */
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  /** PATCHes the testers' project (whose webhook the rows' receiver is). */
  patchProject(patch: Record<string, unknown>): Promise<void>;
  webhookUrl: string;
  rows: RowContext;
  rss: RssSampler;
  log(line: string): void;
}

export async function benchCluster(o: ClusterOptions): Promise<ClusterBenchResult> {
  const { config } = o.rows;
  // The project as the 1 + 1 rows found it: routing EXTERNAL (a full run's config apply leaves it FLOWS
  // with 200 automations) and no webhook while POST /messages runs (each send's three status events
  // would be delivered otherwise).
  await o.patchProject({ routing_mode: "EXTERNAL", webhook_url: null });
  o.log("cluster: a second web process and a second worker beside the first ones");
  await o.pair.startWeb();
  // The new web process's code is cold: an unmeasured GET /limits loop on it alone first.
  const agent = makeAgent(config.connections);
  try {
    if (config.warmupS > 0)
      await closedLoop({
        agent,
        connections: config.connections,
        durationMs: config.warmupS * 1000,
        maxRequests: 100_000,
        next: () => ({ method: "GET", url: `${o.pair.base}/api/v1/limits`, headers: o.rows.auth }),
      });
  } finally {
    agent.destroy();
  }
  const shape: Shape = {
    suffix: " (2 web + 2 workers)",
    tag: "2x2",
    bases: [o.base, o.pair.base],
    startWorkers: async () => void (await Promise.all([o.startWorker(), o.pair.startWorker()])),
    stopWorkers: async () => void (await Promise.all([o.stopWorker(), o.pair.stopWorker()])),
  };
  const messages = await postMessagesRow(o.rows, shape);
  await o.patchProject({ webhook_url: o.webhookUrl });
  const { row: inbound } = await inboundRow(o.rows, shape);
  o.rss.sample();
  await o.pair.stop();
  return { webs: 2, workers: 2, messages, inbound, memory: { web: o.rss.peakOf("web 2"), worker: o.rss.peakOf("worker 2") } };
}
