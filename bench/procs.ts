/**
 * Child processes of the benchmark (next start, the worker, the CLI) and their memory: peak RSS from
 * /proc/<pid>/status (VmHWM, the kernel's own high-water mark) of each process of the tree.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync, readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { send, waitUntil, type HttpAnswer } from "./load";

export const ROOT = path.resolve(import.meta.dirname, "..");

/**
 * `next start`'s command line for a harness (the bench, the fault suite): package.json's start script,
 * the one production runs (Procfile, README), so its options (the keep-alive timeout) are measured and
 * faulted as deployed, then the port and loopback host. Arguments for `node`, after any node flags.
 */
export function nextStartArgs(port: number): string[] {
  const script = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts.start ?? "";
  const [bin, command, ...options] = script.trim().split(/\s+/);
  if (bin !== "next" || command !== "start") throw new Error(`package.json's start script is not \`next start …\`: ${JSON.stringify(script)}`);
  return [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", ...options, "-p", String(port), "-H", "127.0.0.1"];
}

export interface Proc {
  name: string;
  child: ChildProcess;
  pid: number;
  exited: Promise<number | null>;
  /** The last lines it printed (for error messages). */
  tail(): string;
  /**
   * Whether it has printed a line containing `text`: in the tail when first asked, or in any line
   * after that. A ready line can scroll out of the tail between two polls (a worker that starts
   * behind a backlog logs a job's error per line), so a wait asks this, not the tail.
   */
  printed(text: string): boolean;
}

export function spawnProc(name: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): Proc {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  if (child.pid === undefined) throw new Error(`bench: could not start ${name}`);
  // A clean checkout has no bench/results yet.
  mkdirSync(path.dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile, { flags: "a" });
  const lines: string[] = [];
  const watched = new Map<string, boolean>();
  const keep = (chunk: Buffer) => {
    log.write(chunk);
    for (const line of chunk.toString("utf8").split("\n")) {
      if (!line.trim()) continue;
      lines.push(line);
      for (const [text, seen] of watched) if (!seen && line.includes(text)) watched.set(text, true);
    }
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  const printed = (text: string) => {
    if (!watched.get(text)) watched.set(text, lines.join("\n").includes(text));
    return watched.get(text)!;
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  // 'exit' can come before the last output is read; the log is ended once the pipes are closed, so a
  // late chunk is not written to an ended stream (an unhandled write-after-end error).
  child.on("close", () => log.end());
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { name, child, pid: child.pid, exited, tail: () => lines.join("\n"), printed };
}

/** Waits until the process prints `line` (true), fails if it exits first, or gives up after `timeoutMs` (false). */
export async function waitForLine(proc: Proc, line: string, timeoutMs: number): Promise<boolean> {
  const seen = await waitUntil(
    () => {
      if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited ${proc.child.exitCode}:\n${proc.tail()}`);
      return proc.printed(line) ? true : null;
    },
    timeoutMs,
    100,
  );
  return seen !== null;
}

/** SIGTERM, then SIGKILL after `graceMs`; only this process (by its id). */
export async function stopProc(proc: Proc, graceMs = 10_000): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill("SIGTERM");
  const timer = setTimeout(() => proc.child.kill("SIGKILL"), graceMs);
  await proc.exited;
  clearTimeout(timer);
}

/** Runs a node script to completion (bounded by `timeoutMs`) and returns its stdout. */
export async function runNode(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`bench: node ${args.join(" ")} exited ${code}:\n${err || out}`);
  return out;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Each pid's children, from one scan of /proc/<pid>/stat (every process on the machine). */
function childrenByParent(): Map<number, number[]> {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = parents.get(ppid) ?? [];
      list.push(Number(entry));
      parents.set(ppid, list);
    } catch {
      /* the process ended meanwhile */
    }
  }
  return parents;
}

/** The pid and every descendant of it, from a scan of /proc (childrenByParent). */
export function processTree(root: number, parents: Map<number, number[]>): number[] {
  const out: number[] = [];
  const queue = [root];
  while (queue.length && out.length < 1000) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(parents.get(pid) ?? []));
  }
  return out;
}

/** VmRSS and VmHWM of one process, in MiB; null when it is gone. */
export function memoryOf(pid: number): { rssMiB: number; hwmMiB: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
    return { rssMiB: kb("VmRSS") / 1024, hwmMiB: kb("VmHWM") / 1024 };
  } catch {
    return null;
  }
}

/**
 * Samples the memory of named process trees every `everyMs`: per role, the highest VmHWM of any one
 * process (exact peak) and the highest sampled sum of VmRSS over the tree.
 */
export class RssSampler {
  private readonly roots = new Map<string, Set<number>>();
  readonly peak = new Map<string, { hwmMiB: number; treeRssMiB: number; processes: number }>();
  private timer: ReturnType<typeof setInterval> | null = null;
  /** Each role's trees as last scanned (see sample()). */
  private trees: Map<string, number[][]> | null = null;
  private sinceScan = 0;

  track(role: string, pid: number): void {
    const set = this.roots.get(role) ?? new Set<number>();
    set.add(pid);
    this.roots.set(role, set);
    this.sample(true);
  }

  start(everyMs = 500): void {
    this.timer ??= setInterval(() => this.sample(), everyMs);
    this.timer.unref();
  }

  /** The role's peak, rounded to MiB (null: never tracked). */
  peakOf(role: string): { peakMiB: number; treePeakMiB: number; processes: number } | null {
    const p = this.peak.get(role);
    return p ? { peakMiB: Math.round(p.hwmMiB), treePeakMiB: Math.round(p.treeRssMiB), processes: p.processes } : null;
  }

  stop(): void {
    this.sample(true);
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * A scan of /proc reads every process on the machine (about 130 here), and it ran once per tracked
   * root every 500 ms: about 1,000 file reads a second in the bench's own event loop, which also runs
   * the load and the receivers. The trees are scanned again every TREE_RESCAN_SAMPLES samples (and when
   * a root is tracked); between scans only their own processes are read. VmHWM is each process's own
   * peak, so a process first seen a few seconds late still reports it.
   */
  sample(rescan = false): void {
    if (rescan || this.trees === null || ++this.sinceScan >= TREE_RESCAN_SAMPLES) {
      const parents = childrenByParent();
      this.trees = new Map([...this.roots].map(([role, roots]) => [role, [...roots].map((root) => processTree(root, parents))]));
      this.sinceScan = 0;
    }
    for (const [role, trees] of this.trees) {
      const current = this.peak.get(role) ?? { hwmMiB: 0, treeRssMiB: 0, processes: 0 };
      for (const tree of trees) {
        let sum = 0;
        for (const pid of tree) {
          const m = memoryOf(pid);
          if (!m) continue;
          sum += m.rssMiB;
          current.hwmMiB = Math.max(current.hwmMiB, m.hwmMiB);
        }
        current.treeRssMiB = Math.max(current.treeRssMiB, sum);
        current.processes = Math.max(current.processes, tree.length);
      }
      this.peak.set(role, current);
    }
  }
}

/** Samples between two scans of /proc for the tracked trees (5 s at the bench's 500 ms). */
const TREE_RESCAN_SAMPLES = 10;

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on Linux/x86_64

/** User + system CPU seconds a process has used so far (/proc/<pid>/stat), or 0 once it is gone. */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Every process whose command is `name` (the Postgres server and its backends). */
function processesNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === name) pids.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return pids;
}

/**
 * Where the machine's cores go during a phase: CPU seconds of the web tree, the worker tree, every
 * Postgres process and the bench itself (load generator and receivers), over the phase's wall time.
 * Processes that start or end inside the phase count only while they are seen.
 */
export class CpuMeter {
  constructor(private readonly roles: () => Record<string, number[]>) {}

  snapshot(): Record<string, number> {
    const out: Record<string, number> = {};
    const parents = childrenByParent();
    for (const [role, roots] of Object.entries(this.roles())) {
      out[role] = roots.flatMap((root) => processTree(root, parents)).reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
    }
    out.postgres = processesNamed("postgres").reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
    const self = process.cpuUsage();
    out.bench = (self.user + self.system) / 1e6;
    return out;
  }

  /** CPU seconds used per role between two snapshots (not rounded). */
  static used(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
    const out: Record<string, number> = {};
    for (const role of Object.keys(after)) out[role] = Math.max(0, after[role]! - (before[role] ?? 0));
    return out;
  }

  /** CPU milliseconds per operation by role over one or more [before, after] snapshot windows. */
  static msPerOperation(windows: [Record<string, number>, Record<string, number>][], operations: number): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [before, after] of windows) for (const [role, seconds] of Object.entries(CpuMeter.used(before, after))) out[role] = (out[role] ?? 0) + seconds;
    for (const role of Object.keys(out)) out[role] = Math.round((out[role]! * 1000 * 100) / Math.max(1, operations)) / 100;
    return out;
  }

  /** Cores used per role between two snapshots taken `seconds` apart. */
  static cores(before: Record<string, number>, after: Record<string, number>, seconds: number): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [role, used] of Object.entries(CpuMeter.used(before, after))) out[role] = Math.round((used / Math.max(seconds, 0.001)) * 100) / 100;
    return out;
  }
}

/** Waits (up to 90 s) until a `next start` process answers GET /api/v1/identity with the key, and returns that answer; throws with its log's tail otherwise. */
export async function waitForWeb(web: Proc, base: string, auth: Record<string, string>): Promise<HttpAnswer> {
  const ready = await waitUntil(
    async () => {
      if (web.child.exitCode !== null) throw new Error(`next start exited ${web.child.exitCode}:\n${web.tail()}`);
      try {
        const r = await send(undefined, { method: "GET", url: `${base}/api/v1/identity`, headers: auth, timeoutMs: 2000 });
        return r.status === 200 ? r : null;
      } catch {
        return null;
      }
    },
    90_000,
    250,
  );
  if (!ready) throw new Error(`next start did not answer within 90 s:\n${web.tail()}`);
  return ready;
}
