/**
 * The multi-process scenario's installation (scripts/faults/scenarios/multi-process.ts): two more
 * `next start` web processes (SVC_WORKER=off) and two `npm run worker` processes on the suite's
 * private Postgres and Redis, all keeping media in one S3-compatible bucket (s3rver, as the storage
 * tests use it). The stack's first web process stays up beside them as the provider simulator's host
 * (SVC_PUBLIC_URL), so the simulator's memory is one; the load goes to the cluster's two web
 * processes. Each process can be SIGKILLed, SIGTERMed and started again.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { send, waitUntil } from "../../bench/load";
import { freePort, nextStartArgs, spawnProc, stopProc, type Proc } from "../../bench/procs";
import type { Stack } from "./stack";
import { distDir } from "./stack";

const BUCKET = "svc-faults-media";

export interface WebProc {
  name: string;
  base: string;
  port: number;
  proc: Proc;
  starts: number;
}

export interface WorkerProc {
  name: string;
  proc: Proc;
  starts: number;
}

export class Cluster {
  readonly webs: WebProc[] = [];
  readonly workers: WorkerProc[] = [];
  private s3: S3rver | null = null;
  private s3Dir = "";
  private env: NodeJS.ProcessEnv = { ...process.env };

  constructor(
    private readonly stack: Stack,
    private readonly logDir: string,
    private readonly log: (m: string) => void,
  ) {}

  async start(): Promise<void> {
    this.s3Dir = mkdtempSync(path.join(os.tmpdir(), "svc-faults-s3-"));
    this.s3 = new S3rver({
      address: "127.0.0.1",
      port: 0,
      silent: true,
      directory: this.s3Dir,
      resetOnClose: true,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const { port } = await this.s3.run();
    // s3rver's only account; it does not check SigV4 signatures (tests/storage/s3.test.ts).
    this.env = this.stack.processEnv({
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
      S3_REGION: "us-east-1",
      SVC_SHUTDOWN_TIMEOUT_MS: "15000",
      // As README "Running in production" says to deploy behind a load balancer: keep taking
      // connections a little longer than the balancer's readiness probe (the scenario's load probes
      // every 50 ms). With 0 the listener closes at the signal, and a keep-alive request the client
      // wrote on an idle socket at that instant is reset: no server can answer a socket it closed.
      SVC_SHUTDOWN_DELAY_MS: "2000",
    });
    this.log(`s3rver on 127.0.0.1:${port}, bucket ${BUCKET}`);
    for (const name of ["webA", "webB"]) this.webs.push({ name, base: "", port: await freePort(), proc: null as unknown as Proc, starts: 0 });
    for (const name of ["worker1", "worker2"]) this.workers.push({ name, proc: null as unknown as Proc, starts: 0 });
    await Promise.all([...this.webs.map((web) => this.startWeb(web)), ...this.workers.map((worker) => this.startWorker(worker))]);
  }

  async startWeb(web: WebProc): Promise<void> {
    web.starts++;
    web.base = `http://127.0.0.1:${web.port}`;
    web.proc = spawnProc(
      `${web.name}-${web.starts}`,
      nextStartArgs(web.port),
      { ...this.env, PORT: String(web.port), SVC_NEXT_DIST_DIR: distDir(), SVC_WORKER: "off" },
      path.join(this.logDir, `web-${web.name}-${web.starts}.log`),
    );
    const ready = await waitUntil(
      async () => {
        if (!this.alive(web.proc)) throw new Error(`${web.name} exited ${web.proc.child.exitCode}:\n${web.proc.tail()}`);
        const r = await send(undefined, { method: "GET", url: `${web.base}/readyz`, timeoutMs: 3000 }).catch(() => null);
        return r?.status === 200 ? true : null;
      },
      120_000,
      250,
    );
    if (!ready) throw new Error(`${web.name} was not ready within 120 s:\n${web.proc.tail()}`);
    this.log(`${web.name} (next start) ready on ${web.base}, pid ${web.proc.pid}`);
  }

  async startWorker(worker: WorkerProc): Promise<void> {
    worker.starts++;
    const proc = spawnProc(
      `${worker.name}-${worker.starts}`,
      ["--import", "tsx", "cli/worker.ts"],
      this.env,
      path.join(this.logDir, `worker-${worker.name}-${worker.starts}.log`),
    );
    worker.proc = proc;
    const up = await waitUntil(
      () => {
        if (!this.alive(proc)) throw new Error(`${worker.name} exited ${proc.child.exitCode}:\n${proc.tail()}`);
        return proc.printed("running jobs") ? true : null;
      },
      90_000,
      100,
    );
    if (!up) throw new Error(`${worker.name} did not start within 90 s:\n${proc.tail()}`);
    this.log(`${worker.name} (npm run worker) up, pid ${proc.pid}`);
  }

  alive(proc: Proc): boolean {
    return proc.child.exitCode === null && proc.child.signalCode === null;
  }

  /** SIGKILL (nothing runs after it) and wait for the exit. */
  async kill(proc: Proc): Promise<void> {
    proc.child.kill("SIGKILL");
    await proc.exited;
  }

  /** SIGTERM and the exit code (null: killed by a signal). */
  async terminate(proc: Proc): Promise<number | null> {
    proc.child.kill("SIGTERM");
    return proc.exited;
  }

  async stop(): Promise<void> {
    for (const p of [...this.workers, ...this.webs]) if (p.proc) await stopProc(p.proc, 20_000);
    await this.s3?.close().catch(() => {});
    rmSync(this.s3Dir, { recursive: true, force: true });
  }
}
