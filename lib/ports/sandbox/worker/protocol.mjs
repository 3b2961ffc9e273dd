// @ts-check
/**
 * The worker's side of the messages it exchanges with the pool (lib/ports/sandbox/protocol.ts is the
 * main thread's side; the two must agree). Plain JavaScript because this folder is loaded by absolute
 * path into a worker thread, outside the app's bundler and TypeScript loader.
 */

/** Float64 slots of the SharedArrayBuffer the pool reads to enforce CPU time from outside. */
export const SHARED_EXECUTING_SINCE = 0; // epoch ms at which the current slice of user code started; 0 when idle
export const SHARED_CPU_USED = 1; // ms of user code executed by the current run before that slice
export const SHARED_STOPPING = 2; // 1 once the interrupt handler has told QuickJS to end the run
export const SHARED_THREAD_ID = 3; // the worker thread's Linux thread id, whose CPU clock measures the run; 0 when elapsed time does
export const SHARED_SLICE_CPU_START = 4; // that CPU clock's reading, in ms, when the current slice started

/**
 * @typedef {object} SandboxLimits
 * @property {number} cpuMs
 * @property {number} wallMs
 * @property {number} memoryBytes
 * @property {number} subRequests
 * @property {number} logLines
 * @property {number} logBytes
 * @property {number} resultBytes
 */

/**
 * @typedef {object} RunJob
 * @property {"run"} kind
 * @property {string} code
 * @property {"PLAIN" | "WFP"} runtime
 * @property {string} eventJson
 * @property {string} envJson
 * @property {string} contextJson
 * @property {SandboxLimits} limits
 */

/**
 * @typedef {object} CheckJob
 * @property {"check"} kind
 * @property {string} code
 * @property {SandboxLimits} limits
 */

/** @typedef {RunJob | CheckJob} WorkerJob */

/**
 * @typedef {object} RunAnswer
 * @property {"ok" | "error"} status
 * @property {string | null} resultJson
 * @property {string | null} error
 * @property {number} cpu_ms
 * @property {number} sub_requests
 * @property {number} duration_ms
 */

/** @typedef {{ line: number, column: number, message: string }} Diagnostic */
/** @typedef {{ ok: true, runtime: "PLAIN" | "WFP" } | { ok: false, diagnostics: Diagnostic[] }} CheckAnswer */

/**
 * @typedef {object} BridgeFetchRequest
 * @property {string} url
 * @property {string} method
 * @property {[string, string][]} headers
 * @property {string | null} body_base64
 */

/**
 * @typedef {object} BridgeFetchResponse
 * @property {number} status
 * @property {string} status_text
 * @property {[string, string][]} headers
 * @property {string} body_base64
 * @property {string} url
 */

/**
 * @typedef {{ op: "fetch", request: BridgeFetchRequest }
 *   | { op: "kv", action: "get" | "delete", key: string }
 *   | { op: "kv", action: "put", key: string, value: string }
 *   | { op: "kv", action: "list", options: { prefix?: string, limit?: number, cursor?: string } }} HostRequest
 */

/**
 * After "done" the worker disposes the run's QuickJS runtime and prepares the next one, then says
 * "idle", or "broken" when the WebAssembly module failed (the pool then replaces the worker).
 * @typedef {{ type: "ready" }
 *   | { type: "log", id: number, line: { level: string, message: string, at_ms: number } }
 *   | { type: "host", id: number, call: number, request: HostRequest }
 *   | { type: "done", id: number, answer: RunAnswer | CheckAnswer }
 *   | { type: "idle" }
 *   | { type: "broken", reason: string }} FromWorker
 */

/**
 * @typedef {{ type: "job", id: number, job: WorkerJob }
 *   | { type: "host-result", id: number, call: number, ok: true, value: unknown }
 *   | { type: "host-result", id: number, call: number, ok: false, message: string }} ToWorker
 */

export {};
