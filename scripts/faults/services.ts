/**
 * The fault suite's PRIVATE Postgres and Redis: its own cluster (initdb into a temp folder) and its own
 * redis-server, on free loopback ports, so it can stop and restart them without touching the
 * machine's shared servers (127.0.0.1:5432 / :6379), which other suites use at the same time.
 *
 * Postgres refuses to run as root: as root, every pg binary runs as the `postgres` OS user (runuser),
 * and the data folder is owned by it. Binaries: SVC_FAULTS_PG_BIN, else the newest
 * /usr/lib/postgresql/<version>/bin.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { appendFileSync, chmodSync, chownSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { freePort } from "../../bench/procs";
import { sleep, waitUntil } from "../../bench/load";

const PG_OWNER = "postgres";

function pgBin(): string {
  if (process.env.SVC_FAULTS_PG_BIN) return process.env.SVC_FAULTS_PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(path.join(root, v, "bin", "pg_ctl"))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (!versions[0]) throw new Error(`faults: no Postgres binaries under ${root} (set SVC_FAULTS_PG_BIN)`);
  return path.join(root, versions[0], "bin");
}

function asRoot(): boolean {
  return process.getuid?.() === 0;
}

/**
 * Runs a Postgres binary to completion (as the postgres user when we are root); throws with its output
 * on failure. Asynchronous: the suite keeps sending load (and timing it) while pg_ctl restarts.
 */
function pgRun(bin: string, args: string[], timeoutMs: number): Promise<string> {
  const [cmd, argv] = asRoot() ? ["runuser", ["-u", PG_OWNER, "--", bin, ...args]] : [bin, args];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { cwd: "/", stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (out += c.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`faults: ${path.basename(bin)} ${args.join(" ")} failed (${code ?? signal}):\n${out}`));
    });
  });
}

export class PrivatePostgres {
  readonly url: string;
  private readonly bin = pgBin();
  private readonly data: string;
  private readonly log: string;
  private started = false;

  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {
    this.data = path.join(dir, "data");
    this.log = path.join(dir, "postgres.log");
    this.url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  }

  /** initdb (trust auth, no fsync: a fast restart is a clean shutdown, not a power cut) and start. */
  static async start(parent: string): Promise<PrivatePostgres> {
    const dir = path.join(parent, "pg");
    mkdirSync(dir, { recursive: true });
    // The temp folders must be traversable by the postgres user.
    chmodSync(parent, 0o755);
    chmodSync(dir, 0o755);
    if (asRoot()) {
      const uid = Number(spawnSync("id", ["-u", PG_OWNER], { encoding: "utf8" }).stdout.trim());
      const gid = Number(spawnSync("id", ["-g", PG_OWNER], { encoding: "utf8" }).stdout.trim());
      if (!Number.isInteger(uid) || !Number.isInteger(gid))
        throw new Error(`faults: running as root, but there is no '${PG_OWNER}' OS user to run Postgres as`);
      chownSync(dir, uid, gid);
    }
    const pg = new PrivatePostgres(dir, await freePort());
    await pgRun(path.join(pg.bin, "initdb"), ["-D", pg.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"], 120_000);
    appendFileSync(
      path.join(pg.data, "postgresql.conf"),
      [
        "",
        "# svc fault suite",
        `port = ${pg.port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        "fsync = off",
        "synchronous_commit = off",
        "full_page_writes = off",
        "max_connections = 200",
        "shared_buffers = 64MB",
        "",
      ].join("\n"),
    );
    pg.started = true;
    await pg.ctl("start");
    return pg;
  }

  private ctl(action: "start" | "restart" | "stop", mode = "fast"): Promise<string> {
    const args = ["-D", this.data, "-l", this.log, "-w", "-t", "60"];
    if (action !== "start") args.push("-m", mode);
    return pgRun(path.join(this.bin, "pg_ctl"), [...args, action], 90_000);
  }

  /** `pg_ctl restart -m fast`: every connection is closed by the server, then it comes back. Returns its duration. */
  async restart(): Promise<number> {
    const t = Date.now();
    await this.ctl("restart", "fast");
    return Date.now() - t;
  }

  /** `pg_ctl stop -m fast`, `downMs` with no server at all, `pg_ctl start`: a restart that takes a while. */
  async outage(downMs: number): Promise<{ stopMs: number; startMs: number }> {
    let t = Date.now();
    await this.ctl("stop", "fast");
    const stopMs = Date.now() - t;
    await sleep(downMs);
    t = Date.now();
    await this.ctl("start");
    return { stopMs, startMs: Date.now() - t };
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    try {
      await this.ctl("stop", "immediate");
    } catch (error) {
      console.error(error instanceof Error ? error.message : error);
    }
  }

  logTail(lines = 30): string {
    const r = spawnSync("tail", ["-n", String(lines), this.log], { encoding: "utf8" });
    return r.stdout;
  }
}

function redisPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    let answer = "";
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on("error", () => done(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (c: Buffer) => {
      answer += c.toString();
      if (answer.includes("\r\n")) done(answer.startsWith("+PONG"));
    });
  });
}

/** redis-server as our child process (no persistence): stop() ends it, start() brings a fresh one on the same port. */
export class PrivateRedis {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  readonly url: string;

  private constructor(readonly port: number) {
    this.url = `redis://127.0.0.1:${port}`;
  }

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.start();
    return redis;
  }

  get running(): boolean {
    return this.child !== null;
  }

  async start(): Promise<void> {
    if (this.child) return;
    const child = spawn(
      "redis-server",
      ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning"],
      { stdio: "ignore" },
    );
    this.child = child;
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    child.once("exit", () => {
      if (this.child === child) this.child = null;
    });
    const up = await waitUntil(async () => ((await redisPing(this.port)) ? true : null), 10_000, 50);
    if (!up) throw new Error(`faults: redis-server did not answer on port ${this.port} within 10 s`);
  }

  /** Stops this redis-server (our own child, by its pid) and waits until it is gone. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill("SIGKILL");
    await Promise.race([this.exited, sleep(5000)]);
    this.child = null;
  }
}
