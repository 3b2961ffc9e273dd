/**
 * The sandbox port: runs a hosted function's compiled JavaScript module in QuickJS (WebAssembly) on a
 * pool of worker threads, never on the web or job event loop (docs/spec/decisions.md "Hosted functions").
 * The host keeps every capability: `fetch` and `env.KV` calls cross back to the caller's HostBridge,
 * so the SSRF guard, the database and the limits stay in svc's own code.
 */

export type FunctionRuntime = "PLAIN" | "WFP";

/** Per-invocation limits (decisions.md "Hosted functions"). Tests may lower them. */
export interface SandboxLimits {
  cpuMs: number;
  wallMs: number;
  memoryBytes: number;
  subRequests: number;
  logLines: number;
  logBytes: number;
  resultBytes: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  cpuMs: 1_000,
  wallMs: 10_000,
  memoryBytes: 64 * 1024 * 1024,
  subRequests: 50,
  logLines: 200,
  logBytes: 64 * 1024,
  resultBytes: 256 * 1024,
};

export interface SandboxLogLine {
  level: "log" | "info" | "warn" | "error" | "debug";
  message: string;
  /** Milliseconds since the run started. */
  at_ms: number;
}

/** What the code asked `fetch` for; the body is base64 so bytes survive the thread boundary. */
export interface BridgeFetchRequest {
  url: string;
  method: string;
  headers: [string, string][];
  body_base64: string | null;
}

export interface BridgeFetchResponse {
  status: number;
  status_text: string;
  headers: [string, string][];
  body_base64: string;
  url: string;
}

interface BridgeKvListResult {
  keys: { name: string }[];
  list_complete: boolean;
  cursor: string | null;
}

/**
 * The capabilities a run may use, implemented by the caller (lib/domain/functions). A rejected
 * promise becomes a rejected promise inside the function (its message is what the code sees).
 */
export interface HostBridge {
  fetch(request: BridgeFetchRequest): Promise<BridgeFetchResponse>;
  kv: {
    get(key: string): Promise<string | null>;
    put(key: string, value: string): Promise<void>;
    delete(key: string): Promise<void>;
    list(options: { prefix?: string; limit?: number; cursor?: string }): Promise<BridgeKvListResult>;
  };
}

export interface SandboxRunRequest {
  /** The deployed module: plain JavaScript (ES2023, already transpiled), no imports. */
  code: string;
  runtime: FunctionRuntime;
  /** The event (JSON): PLAIN gets it as `event`; WFP as the JSON body of a POST Request. */
  event: unknown;
  /** The function's secrets, visible as `env.NAME` (strings); `env.KV` is added by the sandbox. */
  env: Record<string, string>;
  /** Visible as `ctx` (PLAIN) or the third fetch argument (WFP), plus `waitUntil` on WFP. */
  context: Record<string, unknown>;
  limits?: Partial<SandboxLimits>;
}

export interface SandboxRunOutcome {
  status: "ok" | "error";
  /** The function's JSON result (WFP: the Response's JSON body, else its text); null on error. */
  result: unknown;
  /**
   * `<code>` or `<code>: <detail>`; null on success. The codes: cpu_limit_exceeded, wall_time_exceeded,
   * memory_limit_exceeded, sub_request_limit_exceeded, result_too_large, log_limit_exceeded,
   * invalid_result (JSON.stringify, replaced by the function's code, did not make JSON text of the
   * result), uncaught_exception (its detail is the function's own message).
   */
  error: string | null;
  logs: SandboxLogLine[];
  /** Time spent executing the function's own code (not awaiting fetch or KV). */
  cpu_ms: number;
  sub_requests: number;
  duration_ms: number;
}

/** A position in the code given to `check` (1-based line and column). */
interface SandboxDiagnostic {
  line: number;
  column: number;
  message: string;
}

export type SandboxCheckOutcome = { ok: true; runtime: FunctionRuntime } | { ok: false; diagnostics: SandboxDiagnostic[] };

export interface SandboxPort {
  /** Evaluates the module's top level once under the limits and detects its runtime from its exports. */
  check(code: string, limits?: Partial<SandboxLimits>): Promise<SandboxCheckOutcome>;
  run(request: SandboxRunRequest, bridge: HostBridge): Promise<SandboxRunOutcome>;
  /** Kills the pool's workers (process shutdown, test teardown). */
  close(): Promise<void>;
}
