/**
 * `svc listen --forward-to <url>` (like `stripe listen`): long-polls GET /events/listen through the
 * SDK and POSTs each event to a URL on the developer's machine with the exact body and signature
 * headers a real webhook delivery carries, so the local handler verifies them with the project's
 * webhook secret and the same code as in production. Only talks HTTP; the server never contacts the
 * forwarded URL.
 */
import { createSvcClient, SvcApiError, type Schema, type SvcClient } from "@svc/sdk";
import { errorKind } from "@/lib/error-kind";
import type { Command, CommandIo } from "./command";
import { targetOf, type ApiTarget, type Flags } from "./config/client";
import { refusalLine } from "./sdk";

/** Longer than the server's longest wait (25 s), so a quiet poll is never cut short. */
const POLL_TIMEOUT_MS = 40_000;
/** Like a real delivery attempt (lib/domain/webhooks/schedule.ts). */
const FORWARD_TIMEOUT_MS = 10_000;
const MAX_BACKOFF_MS = 30_000;

type StreamedEvent = Schema<"ListenedEvent">;
type Batch = Schema<"EventBatch">;

export interface ListenOptions {
  /** Stops the loop (Ctrl-C in the real CLI; tests pass their own). */
  signal: AbortSignal;
  /** Waits between reconnects; tests shorten it. */
  backoffMs?: (failures: number) => number;
}

/** A refusal the loop cannot outlive (bad key, missing scope, bad filter): retrying would not help. */
class FatalAnswer extends errorKind("FatalAnswer") {}

const stamp = () => new Date().toISOString().replace("T", " ").slice(0, 19);

function forwardTarget(flags: Flags): URL {
  const value = flags["forward-to"];
  if (typeof value !== "string" || value === "")
    throw new Error("--forward-to is required: the local URL to post events to, e.g. http://localhost:4000/webhook.");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--forward-to '${value}' is not a URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("--forward-to must be an http(s) URL.");
  return url;
}

function typesOf(flags: Flags): string[] {
  return typeof flags.events === "string"
    ? flags.events
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean)
    : [];
}

/**
 * The SDK client of the stream, without the SDK's retries: the loop below is the retry policy here
 * (it reconnects for as long as it runs, and says so at each attempt).
 */
function streamClient(target: ApiTarget): SvcClient {
  return createSvcClient({ apiKey: target.key, baseUrl: target.url, maxRetries: 0 });
}

async function poll(api: SvcClient, target: ApiTarget, cursor: string | null, types: string[], signal: AbortSignal): Promise<Batch> {
  const { data, error, response } = await api.GET("/events/listen", {
    params: { query: { wait: 25, limit: 20, ...(cursor ? { after: cursor } : {}), ...(types.length ? { types: types.join(",") } : {}) } },
    signal: AbortSignal.any([signal, AbortSignal.timeout(POLL_TIMEOUT_MS)]),
  });
  // Checked although typed: --url may name a server that is not svc's API and still answers 200.
  if (response.ok && Array.isArray(data?.data) && typeof data.cursor === "string") return data;
  if (response.ok) throw new Error(`HTTP ${response.status}: not an event batch (is ${target.url} the svc API base?)`);
  const problem = refusalLine(new SvcApiError(response, error));
  // 4xx but 408/429 will not change on a retry; 5xx, timeouts and throttling are waited out.
  if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
    const hint =
      response.status === 404
        ? ` (does ${target.url} serve GET /events/listen? Check --url)`
        : response.status === 403
          ? " (the key needs the projects:read scope)"
          : "";
    throw new FatalAnswer(`${problem}${hint}`);
  }
  throw new Error(problem);
}

async function forward(to: URL, event: StreamedEvent, io: CommandIo, signal: AbortSignal): Promise<void> {
  io.out(`${stamp()}  --> ${event.type} [${event.id}]`);
  try {
    // eslint-disable-next-line no-restricted-globals -- the developer's own URL, not the svc API: a delivery, as the server's would be
    const response = await fetch(to, {
      method: "POST",
      headers: { ...event.headers, "content-type": "application/json" },
      body: event.body,
      redirect: "manual",
      signal: AbortSignal.any([signal, AbortSignal.timeout(FORWARD_TIMEOUT_MS)]),
    });
    await response.body?.cancel().catch(() => {});
    io.out(`${stamp()}  <-- [${response.status}] POST ${to.href} [${event.id}]`);
  } catch (error) {
    if (signal.aborted) return;
    const reason =
      error instanceof Error && error.name === "TimeoutError"
        ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s`
        : error instanceof Error && error.cause instanceof Error
          ? error.cause.message
          : String(error);
    io.out(`${stamp()}  <-- [error] POST ${to.href} [${event.id}]: ${reason}`);
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

const defaultBackoff = (failures: number) => Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (failures - 1));

/** The loop: returns when `signal` aborts; throws only for an answer a retry cannot fix. */
export async function listen(flags: Flags, io: CommandIo, options: ListenOptions): Promise<void> {
  const to = forwardTarget(flags);
  const target = targetOf(flags);
  const api = streamClient(target);
  const types = typesOf(flags);
  const { signal } = options;
  const backoff = options.backoffMs ?? defaultBackoff;
  let cursor: string | null = null;
  let failures = 0;
  let warnedUnsigned = false;
  while (!signal.aborted) {
    let batch: Batch;
    try {
      batch = await poll(api, target, cursor, types, signal);
    } catch (error) {
      if (signal.aborted) break;
      if (FatalAnswer.is(error)) throw error;
      failures++;
      const wait = backoff(failures);
      const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
      io.out(`${stamp()}  ! ${target.url} unreachable (${reason}); retrying in ${Math.round(wait / 100) / 10} s`);
      await pause(wait, signal);
      continue;
    }
    if (cursor === null || failures > 0) {
      io.out(
        cursor === null
          ? `Ready! Forwarding ${types.length ? types.join(", ") : "every event your webhook would receive"} to ${to.href} (Ctrl-C to stop).`
          : `${stamp()}  reconnected`,
      );
      if (cursor === null) {
        io.out("Each request is signed with your project's webhook secret, as a real delivery is: verify it with that secret and your production code.");
      }
    }
    failures = 0;
    for (const event of batch.data) {
      if (signal.aborted) break;
      if (!warnedUnsigned && !event.headers["x-svc-signature"]) {
        warnedUnsigned = true;
        io.out("Note: the project has no webhook secret (signing is off), so events arrive without signature headers.");
      }
      await forward(to, event, io, signal);
    }
    // After an interrupted batch the cursor stays: the unforwarded events would come back next time.
    if (!signal.aborted) cursor = batch.cursor;
  }
}

export const listenCommand: Command = {
  group: "listen",
  name: "",
  summary: "--forward-to <http(s) url> [--events t1,t2] [--url --key]: forward the project's events to a local URL, signed as real deliveries",
  options: { "forward-to": { type: "string" }, events: { type: "string" }, url: { type: "string" }, key: { type: "string" } },
  async run(flags, io) {
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    try {
      await listen(flags, io, { signal: stop.signal });
      io.out("Stopped.");
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
  },
};
