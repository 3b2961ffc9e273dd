import path from "node:path";
import { SandboxPool, type PoolStats } from "./pool";
import type { CheckAnswer, RunAnswer } from "./protocol";
import {
  DEFAULT_SANDBOX_LIMITS,
  type HostBridge,
  type SandboxCheckOutcome,
  type SandboxLimits,
  type SandboxPort,
  type SandboxRunOutcome,
  type SandboxRunRequest,
} from "./types";
import type { SlotOutcome } from "./worker-slot";

export * from "./types";

/**
 * The sandbox port (docs/spec/decisions.md "Hosted functions"): QuickJS in WebAssembly on a pool of
 * worker threads, so a function's code never runs on the web or job event loop and a runaway one can
 * be killed and its worker replaced. types.ts describes the interface; worker/ is the engine side.
 */

/**
 * Four workers although the machine has two cores, on purpose: with one worker per core a CPU-heavy
 * function on each would leave a trivial function waiting in the queue; oversubscribed, the OS shares
 * the cores and the trivial one still runs (a busy worker costs it time slices, not a turn).
 */
const DEFAULT_POOL_SIZE = 4;

/**
 * The worker is plain JavaScript loaded by absolute path, outside the bundler: the app (Next.js, tsx,
 * vitest, the CLI) always runs from the repository root.
 */
const DEFAULT_WORKER_PATH = path.join(process.cwd(), "lib", "ports", "sandbox", "worker", "sandbox-worker.mjs");

export interface SandboxOptions {
  /** Worker threads in the pool (default DEFAULT_POOL_SIZE). */
  poolSize?: number;
  /**
   * The limits of every run; a run or check may change them, except memory: the hard cap is the
   * pool's (each worker's bounded WebAssembly memory), a lower per-run value only refuses single
   * allocations above it (QuickJS's own check).
   */
  limits?: Partial<SandboxLimits>;
  /** Absolute path of worker/sandbox-worker.mjs, when the process does not run from the repository root. */
  workerPath?: string;
}

export interface Sandbox extends SandboxPort {
  stats(): PoolStats;
}

/** The run's limits: the pool's with the run's changes; memory never above the pool's (the workers' WebAssembly memory). */
function runLimits(pool: SandboxLimits, override: Partial<SandboxLimits> | undefined): SandboxLimits {
  const limits = { ...pool, ...override };
  return { ...limits, memoryBytes: Math.min(limits.memoryBytes, pool.memoryBytes) };
}

function runOutcome(outcome: SlotOutcome): SandboxRunOutcome {
  if (outcome.kind === "ended") {
    const { error, cpuMs, subRequests, durationMs, logs } = outcome;
    return { status: "error", result: null, error, logs, cpu_ms: cpuMs, sub_requests: subRequests, duration_ms: durationMs };
  }
  const answer = outcome.answer as RunAnswer;
  return {
    status: answer.status,
    result: answer.resultJson === null ? null : JSON.parse(answer.resultJson),
    error: answer.error,
    logs: outcome.logs,
    cpu_ms: answer.cpu_ms,
    sub_requests: answer.sub_requests,
    duration_ms: answer.duration_ms,
  };
}

function checkOutcome(outcome: SlotOutcome): SandboxCheckOutcome {
  if (outcome.kind === "ended")
    return { ok: false, diagnostics: [{ line: 1, column: 1, message: `${outcome.error} (while evaluating the module's top level)` }] };
  return outcome.answer as CheckAnswer;
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const limits: SandboxLimits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
  const pool = new SandboxPool({
    size: options.poolSize ?? DEFAULT_POOL_SIZE,
    workerPath: options.workerPath ?? DEFAULT_WORKER_PATH,
    memoryBytes: limits.memoryBytes,
  });
  return {
    async check(code: string, override?: Partial<SandboxLimits>): Promise<SandboxCheckOutcome> {
      return checkOutcome(await pool.submit({ kind: "check", code, limits: runLimits(limits, override) }, null));
    },
    async run(request: SandboxRunRequest, bridge: HostBridge): Promise<SandboxRunOutcome> {
      const job = {
        kind: "run" as const,
        code: request.code,
        runtime: request.runtime,
        eventJson: JSON.stringify(request.event ?? null),
        envJson: JSON.stringify(request.env),
        contextJson: JSON.stringify(request.context),
        limits: runLimits(limits, request.limits),
      };
      return runOutcome(await pool.submit(job, bridge));
    },
    close: () => pool.close(),
    stats: () => pool.stats(),
  };
}
