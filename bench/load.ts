/**
 * A small, bounded HTTP load generator on node:http (keep-alive agent, one socket per connection).
 * Closed loop: N connections each send their next request when the previous one answers, until the
 * count OR the time bound is reached. Open loop: requests at a fixed rate, bounded the same way.
 * Loopback only: every URL is checked to be on 127.0.0.1 before a request leaves.
 */
import http from "node:http";
import { performance } from "node:perf_hooks";
import { summarize, type LatencySummary } from "./stats";
import { watchOwnStalls, type OwnStalls } from "./own-stalls";

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
}

export interface HttpAnswer {
  status: number;
  body: string;
  ms: number;
  headers: http.IncomingHttpHeaders;
}

export function assertLoopback(url: string): URL {
  const parsed = new URL(url);
  if (parsed.hostname !== "127.0.0.1") throw new Error(`bench: refusing non-loopback URL ${url}`);
  return parsed;
}

export function makeAgent(connections: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
}

/** One request; resolves with status and body (never rejects on HTTP status; rejects on network errors and timeouts). */
export function send(agent: http.Agent | undefined, req: HttpRequest): Promise<HttpAnswer> {
  const target = assertLoopback(req.url);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...(req.headers ?? {}) };
    if (req.body !== undefined) headers["content-length"] = Buffer.byteLength(req.body);
    const r = http.request(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers, agent: agent ?? false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), ms: performance.now() - started, headers: res.headers }),
        );
        res.on("error", reject);
      },
    );
    r.setTimeout(req.timeoutMs ?? 15_000, () => r.destroy(new Error(`timeout after ${req.timeoutMs ?? 15_000} ms: ${req.method} ${req.url}`)));
    // A reset on a kept-alive socket reused after the server closed it (its keep-alive timeout) is the
    // client's race, not the server refusing: the error says which it was.
    r.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        r.reusedSocket && error.code === "ECONNRESET" ? Object.assign(new Error(`${error.message} (a reused keep-alive socket)`), { code: error.code }) : error,
      ),
    );
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

export async function sendJson<T = unknown>(agent: http.Agent | undefined, req: HttpRequest & { json?: unknown }): Promise<{ status: number; body: T }> {
  const body = req.json !== undefined ? JSON.stringify(req.json) : req.body;
  const headers = { ...(req.headers ?? {}), ...(body !== undefined ? { "content-type": "application/json" } : {}) };
  const answer = await send(agent, { ...req, headers, ...(body !== undefined ? { body } : {}) });
  let parsed: unknown = answer.body;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    /* not JSON: keep the text */
  }
  return { status: answer.status, body: parsed as T };
}

export interface ClosedLoopOptions {
  agent: http.Agent;
  connections: number;
  durationMs: number;
  maxRequests: number;
  /** The i-th request (0-based), or null when there is nothing left to send. */
  next: (i: number) => HttpRequest | null;
  /** Status counted as success; default 200. */
  okStatus?: number;
}

export interface ClosedLoopResult {
  requests: number;
  ok: number;
  errors: number;
  statuses: Record<string, number>;
  elapsedMs: number;
  rps: number;
  latency: LatencySummary;
  /**
   * Per `TIMELINE_MS` of the run, by when requests answered: [start ms, answers, p50 ms, max ms]. A
   * tail made of a few moments when every request in flight answers late (a collection's pause) reads
   * differently here from one spread over the run (README "The POST row's tail").
   */
  timeline: [number, number, number, number][];
  firstError: string | null;
  /** The bench process's own stalls during the run (bench/own-stalls.ts). */
  generator: OwnStalls;
}

const TIMELINE_MS = 250;

function timelineOf(ends: readonly number[], latencies: readonly number[]): [number, number, number, number][] {
  const buckets = new Map<number, number[]>();
  ends.forEach((end, i) => {
    const at = Math.floor(end / TIMELINE_MS) * TIMELINE_MS;
    const bucket = buckets.get(at) ?? [];
    bucket.push(latencies[i]!);
    buckets.set(at, bucket);
  });
  return [...buckets.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([at, ms]) => {
      const s = summarize(ms);
      return [at, s.count, Math.round(s.p50 ?? 0), Math.round(s.max ?? 0)];
    });
}

export async function closedLoop(o: ClosedLoopOptions): Promise<ClosedLoopResult> {
  const okStatus = o.okStatus ?? 200;
  const latencies: number[] = [];
  const ends: number[] = [];
  const statuses: Record<string, number> = {};
  let issued = 0;
  let ok = 0;
  let errors = 0;
  let firstError: string | null = null;
  const started = performance.now();
  const deadline = started + o.durationMs;
  const stopWatching = watchOwnStalls();

  async function connection() {
    while (issued < o.maxRequests && performance.now() < deadline) {
      const req = o.next(issued++);
      if (!req) return;
      try {
        const answer = await send(o.agent, req);
        latencies.push(answer.ms);
        ends.push(performance.now() - started);
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        if (answer.status === okStatus) ok++;
        else firstError ??= `HTTP ${answer.status}: ${answer.body.slice(0, 300)}`;
      } catch (error) {
        errors++;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  }

  await Promise.all(Array.from({ length: o.connections }, () => connection()));
  const elapsedMs = performance.now() - started;
  const generator = stopWatching();
  return {
    requests: latencies.length + errors,
    ok,
    errors,
    statuses,
    elapsedMs,
    rps: (ok * 1000) / elapsedMs,
    latency: summarize(latencies),
    timeline: timelineOf(ends, latencies),
    firstError,
    generator,
  };
}

export interface OpenLoopOptions {
  ratePerSecond: number;
  count: number;
  maxDurationMs: number;
  /** Sends still unanswered beyond this are skipped (counted as dropped): the server is not keeping up. */
  maxInFlight: number;
  /** Called for the i-th send at its scheduled time; its promise is awaited only at the end. */
  fire: (i: number) => Promise<unknown>;
}

export interface OpenLoopResult {
  sent: number;
  /** Scheduled sends skipped because `maxInFlight` were still unanswered. */
  dropped: number;
  failed: number;
  elapsedMs: number;
  /** The largest lag of a send behind its schedule (the generator's own health). */
  maxLagMs: number;
  firstError: string | null;
}

/** Fixed-rate sends (open loop: a slow answer does not delay the next send), bounded in count and time. */
export async function openLoop(o: OpenLoopOptions): Promise<OpenLoopResult> {
  const interval = 1000 / o.ratePerSecond;
  const started = performance.now();
  const pending: Promise<void>[] = [];
  let failed = 0;
  let dropped = 0;
  let inFlight = 0;
  let maxLag = 0;
  let firstError: string | null = null;
  let i = 0;
  while (i < o.count && performance.now() - started < o.maxDurationMs) {
    const now = performance.now();
    const due = started + i * interval;
    if (now < due) {
      await new Promise((r) => setTimeout(r, Math.max(0, Math.min(5, due - now))));
      continue;
    }
    maxLag = Math.max(maxLag, now - due);
    const index = i++;
    if (inFlight >= o.maxInFlight) {
      dropped++;
      continue;
    }
    inFlight++;
    pending.push(
      o.fire(index).then(
        () => {
          inFlight--;
        },
        (error: unknown) => {
          inFlight--;
          failed++;
          firstError ??= error instanceof Error ? error.message : String(error);
        },
      ),
    );
  }
  const elapsedMs = performance.now() - started;
  await Promise.all(pending);
  return { sent: i - dropped, dropped, failed, elapsedMs, maxLagMs: maxLag, firstError };
}

/** Runs `task(i)` for i < count with at most `concurrency` at once, bounded by time. Returns how many ran. */
export async function pool(count: number, concurrency: number, maxDurationMs: number, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  let done = 0;
  const deadline = performance.now() + maxDurationMs;
  async function lane() {
    while (next < count && performance.now() < deadline) {
      const i = next++;
      await task(i);
      done++;
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, () => lane()));
  return done;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls `check` every `everyMs` until it returns a non-null value or `timeoutMs` passes (then null). */
export async function waitUntil<T>(check: () => Promise<T | null> | T | null, timeoutMs: number, everyMs = 250): Promise<T | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() >= deadline) return null;
    await sleep(everyMs);
  }
}
