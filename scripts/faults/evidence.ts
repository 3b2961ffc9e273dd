/** What the suite observed beyond status codes: request tallies, log lines, and where an undelivered message is stuck. */
import { summarize } from "../../bench/stats";
import type { FaultContext } from "./context";
import { ms } from "./report";

/** A provider message as the suite sent it (see scenarios/postgres.ts). */
export interface SentMessage {
  i: number;
  id: string;
  attempts: number;
  firstSentAt: number;
}

/** Every answer of one kind of request: latencies, statuses, 5xx other than 503, and the slow or unanswered ones. */
export class Tally {
  readonly latencies: number[] = [];
  readonly statuses: Record<string, number> = {};
  readonly errors500: string[] = [];
  /** Requests over the latency limit or without an answer: when they were sent (s after the load began) and how they ended. */
  readonly slow: string[] = [];
  slowest = { ms: 0, what: "" };

  constructor(
    private readonly origin: () => number,
    private readonly limitMs: number,
  ) {}

  record(what: string, status: number | string, latency: number, body = ""): void {
    this.latencies.push(latency);
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    if (latency > this.slowest.ms) this.slowest = { ms: latency, what: `${what} → ${status}` };
    if (typeof status === "number" && status >= 500 && status !== 503) this.errors500.push(`${what} → ${status} ${body.slice(0, 200)}`);
    if (latency > this.limitMs || typeof status === "string") {
      const sentAt = (Date.now() - latency - this.origin()) / 1000;
      this.slow.push(`${what} sent at +${sentAt.toFixed(1)} s → ${status} after ${ms(latency)}`);
    }
  }

  line(): string {
    const s = summarize(this.latencies);
    return `${s.count} requests, answers ${JSON.stringify(this.statuses)}, p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)} (${this.slowest.what})`;
  }
}

/** What the web and worker logs say about the database. */
const LOG_PATTERNS: Record<string, [RegExp, "web" | "worker" | undefined]> = {
  "dead-socket writes survived in web (postgres-guard)": [/connection closed under a pending write/g, "web"],
  "in the worker": [/connection closed under a pending write/g, "worker"],
  "503 database_unavailable logged": [/database unavailable/g, "web"],
  "unhandled errors (500)": [/unhandled error/g, undefined],
  "provider webhooks not stored (500)": [/provider webhook not stored/g, undefined],
};

export function logCounts(ctx: FaultContext): Record<string, number> {
  return Object.fromEntries(Object.entries(LOG_PATTERNS).map(([name, [re, only]]) => [name, ctx.stack.logCount(re, only)]));
}

export function logLine(before: Record<string, number>, after: Record<string, number>): string {
  return Object.keys(after)
    .map((k) => `${after[k]! - (before[k] ?? 0)} ${k}`)
    .join(", ");
}

/** Where an undelivered message is stuck: its stored envelope, its ingest job (pg-boss), its row, event and delivery. */
export async function diagnose(ctx: FaultContext, missing: SentMessage[]): Promise<string[]> {
  const out: string[] = [];
  for (const d of missing) {
    const envelopes = await ctx.stack.q<{ id: string; received_at: Date; processed_at: Date | null; error: string | null }>(
      "select id, received_at, processed_at, error from inbound_webhooks where body like $1 order by id",
      [`%${d.id}%`],
    );
    const jobs = await ctx.stack
      .q<{ name: string; state: string; retry_count: number; created_on: Date; started_on: Date | null; completed_on: Date | null }>(
        "select name, state, retry_count, created_on, started_on, completed_on from pgboss.job where data->>'id' = any($1) order by created_on",
        [envelopes.map((e) => e.id)],
      )
      .catch((error: unknown) => [
        {
          name: `(pgboss.job not readable: ${error instanceof Error ? error.message : error})`,
          state: "?",
          retry_count: 0,
          created_on: new Date(),
          started_on: null,
          completed_on: null,
        },
      ]);
    const [row] = await ctx.stack.q<{ id: string }>("select id from messages where channel_id = 'ch_sandbox' and platform_message_id = $1", [d.id]);
    const deliveries = row
      ? await ctx.stack.q<{ status: string; attempt_count: number; last_error: string | null }>(
          "select d.status, d.attempt_count, d.last_error from webhook_deliveries d join events e on e.id = d.event_id where e.type = 'message.received' and e.payload->>'message_id' = $1",
          [row.id],
        )
      : [];
    const t = (at: Date | null) => (at ? `+${((at.getTime() - d.firstSentAt) / 1000).toFixed(1)} s` : "never");
    out.push(
      `#${d.i} (${d.attempts} POST${d.attempts > 1 ? "s" : ""}; times from its first POST): ` +
        `envelopes ${envelopes.map((e) => `${e.id} received ${t(e.received_at)} processed ${t(e.processed_at)}${e.error ? ` error ${e.error.slice(0, 80)}` : ""}`).join("; ") || "none"}; ` +
        `jobs ${jobs.map((j) => `${j.name} ${j.state} (retries ${j.retry_count}, created ${t(j.created_on)}, started ${t(j.started_on)}, completed ${t(j.completed_on)})`).join("; ") || "none"}; ` +
        `message ${row?.id ?? "none"}; deliveries ${deliveries.map((x) => `${x.status} after ${x.attempt_count} attempts${x.last_error ? ` (${x.last_error.slice(0, 80)})` : ""}`).join("; ") || "none"}`,
    );
  }
  return out;
}
