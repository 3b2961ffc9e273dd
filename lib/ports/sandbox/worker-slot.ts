import { Worker } from "node:worker_threads";
import { serveHostRequest } from "./host-requests";
import { cpuLimitError, memoryLimitError, wallTimeError, workerCrashError } from "./limit-messages";
import { SHARED_SLOTS, type CheckAnswer, type FromWorker, type RunAnswer, type ToWorker, type WorkerData, type WorkerJob } from "./protocol";
import type { HostBridge, SandboxLogLine } from "./types";
import { JobWatchdog, type WatchdogReason } from "./watchdog";

/**
 * One place in the pool: a worker thread (started on first use, kept warm, replaced when it dies or
 * has to be killed) and the job it runs. Host calls of the job are served here with the job's bridge;
 * its log lines arrive one by one, so a job ended from outside keeps what it logged.
 */

export type SlotOutcome =
  | { kind: "answer"; answer: RunAnswer | CheckAnswer; logs: SandboxLogLine[] }
  /** The job never answered: ended by the watchdog, or its worker died. */
  | { kind: "ended"; error: string; cpuMs: number; subRequests: number; durationMs: number; logs: SandboxLogLine[] };

export interface SlotConfig {
  workerPath: string;
  /** The pool's per-run memory limit (the worker's bounded WebAssembly memory is sized from it). */
  memoryBytes: number;
  /** Called whenever the slot can take the next queued job. */
  onAvailable: () => void;
}

interface ActiveJob {
  id: number;
  job: WorkerJob;
  bridge: HostBridge | null;
  logs: SandboxLogLine[];
  subRequests: number;
  startedAt: number;
  watchdog: JobWatchdog | null;
  resolve: (outcome: SlotOutcome) => void;
  reject: (error: Error) => void;
}

type SlotState = "stopped" | "starting" | "idle" | "busy" | "recycling" | "closed";

/**
 * QuickJS checks its own stack at 1 MiB (worker/session.mjs); WebAssembly frames of that much QuickJS
 * stack need far more native stack, which is what this sizes. Without the margin, deep recursion would
 * overflow the thread before QuickJS noticed.
 */
const WORKER_STACK_MB = 64;
/** The worker's own JavaScript heap (host-side copies of bodies, logs, results), apart from the WebAssembly memory. */
const WORKER_HEAP_MB = 128;

let nextJobId = 1;

export class WorkerSlot {
  private state: SlotState = "stopped";
  private worker: Worker | null = null;
  private workerReady = false;
  private active: ActiveJob | null = null;
  private readonly shared = new Float64Array(new SharedArrayBuffer(SHARED_SLOTS * Float64Array.BYTES_PER_ELEMENT));
  /** Workers this slot has started, replacements included. */
  starts = 0;

  constructor(private readonly config: SlotConfig) {}

  /** Free for a job now, though it may first have to start its worker. */
  get available(): boolean {
    return this.active === null && (this.state === "stopped" || this.state === "starting" || this.state === "idle");
  }

  /** Free, with a worker ready and a runtime prepared. */
  get warm(): boolean {
    return this.active === null && this.state === "idle";
  }

  get alive(): boolean {
    return this.worker !== null;
  }

  /** Between a job's answer and "idle": free again within milliseconds. */
  get recycling(): boolean {
    return this.state === "recycling";
  }

  run(job: WorkerJob, bridge: HostBridge | null): Promise<SlotOutcome> {
    return new Promise((resolve, reject) => {
      this.active = { id: nextJobId++, job, bridge, logs: [], subRequests: 0, startedAt: performance.now(), watchdog: null, resolve, reject };
      if (this.state === "stopped") this.start();
      else if (this.state === "idle") this.post();
      this.keepProcessAlive();
    });
  }

  async close(): Promise<void> {
    this.state = "closed";
    this.active?.watchdog?.stop();
    this.active?.reject(new Error("The sandbox was closed before the function finished."));
    this.active = null;
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private start(): void {
    const data: WorkerData = { memoryBytes: this.config.memoryBytes, sharedBuffer: this.shared.buffer as SharedArrayBuffer };
    const worker = new Worker(this.config.workerPath, {
      workerData: data,
      // A clean worker: not the parent's loaders (tsx, vitest) nor its environment (secrets).
      execArgv: [],
      env: {},
      resourceLimits: { stackSizeMb: WORKER_STACK_MB, maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    this.worker = worker;
    this.workerReady = false;
    this.state = "starting";
    this.starts += 1;
    this.keepProcessAlive();
    worker.on("message", (message: FromWorker) => this.worker === worker && this.onMessage(worker, message));
    worker.on("error", (error) => this.worker === worker && this.onWorkerGone(error));
    worker.on("exit", (code) => this.worker === worker && this.onWorkerGone(new Error(`the worker exited with code ${code}`)));
  }

  private onMessage(worker: Worker, message: FromWorker): void {
    const active = this.active;
    switch (message.type) {
      case "ready":
        this.workerReady = true;
        this.becomeIdle();
        return;
      case "log":
        if (active?.id === message.id && active.logs.length < active.job.limits.logLines) active.logs.push(message.line);
        return;
      case "host":
        if (active?.id !== message.id) return;
        if (message.request.op === "fetch") active.subRequests += 1;
        // Runs beside the job: serveHostRequest answers a failed call as a reply and never rejects.
        void serveHostRequest(active.bridge, message.request).then((reply) => {
          if (this.worker === worker && this.active?.id === message.id)
            this.send(worker, { type: "host-result", id: message.id, call: message.call, ...reply });
        });
        return;
      case "done":
        if (active?.id !== message.id) return;
        this.state = "recycling";
        this.finish({ kind: "answer", answer: message.answer, logs: active.logs });
        return;
      case "idle":
        this.becomeIdle();
        return;
      case "broken":
        this.replaceWorker();
        return;
    }
  }

  private becomeIdle(): void {
    if (this.state === "closed") return;
    this.state = "idle";
    this.keepProcessAlive();
    if (this.active) this.post();
    else this.config.onAvailable();
  }

  private post(): void {
    const active = this.active;
    const worker = this.worker;
    if (!active || !worker) return;
    this.state = "busy";
    this.shared.fill(0);
    active.startedAt = performance.now();
    active.watchdog = new JobWatchdog(this.shared, active.job.limits, (reason) => this.endFromOutside(reason));
    active.watchdog.start();
    this.send(worker, { type: "job", id: active.id, job: active.job });
  }

  private send(worker: Worker, message: ToWorker): void {
    worker.postMessage(message);
  }

  private finish(outcome: SlotOutcome): void {
    const active = this.active;
    if (!active) return;
    active.watchdog?.stop();
    this.active = null;
    this.keepProcessAlive();
    active.resolve(outcome);
  }

  /**
   * An idle worker must not keep the process running; one with a job, or about to be free for the
   * queue (starting, recycling), must, or a script awaiting a run could exit under it.
   */
  private keepProcessAlive(): void {
    if (this.active || this.state === "starting" || this.state === "recycling") this.worker?.ref();
    else this.worker?.unref();
  }

  /** The job ran past a limit the worker could not enforce itself: end it with its worker. */
  private endFromOutside(reason: WatchdogReason): void {
    const active = this.active;
    if (!active) return;
    const limits = active.job.limits;
    const error = reason === "cpu_limit_exceeded" ? cpuLimitError(limits) : wallTimeError(limits);
    this.finish(this.ended(active, error));
    this.replaceWorker();
  }

  private ended(active: ActiveJob, error: string): SlotOutcome {
    const cpuMs = active.watchdog ? Math.round(active.watchdog.cpuUsedMs() * 100) / 100 : 0;
    const durationMs = Math.round((performance.now() - active.startedAt) * 100) / 100;
    return { kind: "ended", error, cpuMs, subRequests: active.subRequests, durationMs, logs: active.logs };
  }

  private onWorkerGone(error: Error): void {
    const wasReady = this.workerReady;
    this.worker = null;
    if (this.state === "closed") return;
    this.state = "stopped";
    const active = this.active;
    if (active && !wasReady) {
      this.active = null;
      active.reject(new Error(`The sandbox worker (${this.config.workerPath}) failed to start: ${error.message}`));
    } else if (active) {
      const outOfMemory = (error as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY";
      this.finish(this.ended(active, outOfMemory ? memoryLimitError(active.job.limits) : workerCrashError(error.message)));
    }
    // A worker that never became ready is not restarted by itself (its path or engine is wrong); the next
    // job tries again and reports the failure.
    if (wasReady) this.start();
    else this.config.onAvailable();
  }

  private replaceWorker(): void {
    const old = this.worker;
    this.worker = null;
    // Not awaited: the replacement starts now; terminate() only reports the exit code, it does not fail.
    void old?.terminate();
    if (this.state === "closed") return;
    this.state = "stopped";
    this.start();
  }
}
