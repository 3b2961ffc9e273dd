import type { BridgeFetchRequest, FunctionRuntime, SandboxCheckOutcome, SandboxLimits, SandboxLogLine } from "./types";

/**
 * The main thread's side of the messages exchanged with a sandbox worker; worker/protocol.mjs is the
 * worker's side (plain JavaScript, loaded outside the bundler) and must agree with this file.
 */

/** Float64 slots of the SharedArrayBuffer a worker publishes its CPU time in (worker/cpu-clock.mjs). */
export const SHARED_EXECUTING_SINCE = 0;
export const SHARED_CPU_USED = 1;
/** 1 once the worker's interrupt handler has told QuickJS to end the run: the worker is about to answer. */
export const SHARED_STOPPING = 2;
/** The worker thread's Linux thread id, whose CPU clock measures the run (worker/thread-clock.mjs); 0 when elapsed time does. */
export const SHARED_THREAD_ID = 3;
/** That CPU clock's reading, in ms, when the current slice started. */
export const SHARED_SLICE_CPU_START = 4;
export const SHARED_SLOTS = 5;

export interface WorkerData {
  /** The pool's per-run memory limit: the worker sizes its bounded WebAssembly memory from it. */
  memoryBytes: number;
  sharedBuffer: SharedArrayBuffer;
}

export type WorkerJob =
  | { kind: "run"; code: string; runtime: FunctionRuntime; eventJson: string; envJson: string; contextJson: string; limits: SandboxLimits }
  | { kind: "check"; code: string; limits: SandboxLimits };

export interface RunAnswer {
  status: "ok" | "error";
  resultJson: string | null;
  error: string | null;
  cpu_ms: number;
  sub_requests: number;
  duration_ms: number;
}

export type CheckAnswer = SandboxCheckOutcome;

export type HostRequest =
  | { op: "fetch"; request: BridgeFetchRequest }
  | { op: "kv"; action: "get" | "delete"; key: string }
  | { op: "kv"; action: "put"; key: string; value: string }
  | { op: "kv"; action: "list"; options: { prefix?: string; limit?: number; cursor?: string } };

export type HostReply = { ok: true; value: unknown } | { ok: false; message: string };

export type FromWorker =
  | { type: "ready" }
  | { type: "log"; id: number; line: SandboxLogLine }
  | { type: "host"; id: number; call: number; request: HostRequest }
  | { type: "done"; id: number; answer: RunAnswer | CheckAnswer }
  /** After "done": the finished runtime is disposed and the next one prepared. */
  | { type: "idle" }
  /** After "done": the WebAssembly module failed; the worker must be replaced. */
  | { type: "broken"; reason: string };

export type ToWorker = { type: "job"; id: number; job: WorkerJob } | ({ type: "host-result"; id: number; call: number } & HostReply);
