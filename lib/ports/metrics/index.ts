import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * The process's Prometheus series (README "Health and metrics"), one registry per runtime: a web or
 * worker process has one, each test app its own. Labels are bounded sets only: route templates (never
 * a raw path), job and queue names, platforms, outcomes, limit names. No project id, key, phone
 * number or URL is ever a label: that would be tenant data in the scrape and a series per customer.
 *
 * Recording costs a histogram observe: the label children are made once and kept (HttpRoute below),
 * so a request allocates nothing here beyond what the observe itself does.
 */

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];

type Child = { observe(value: number): void };

/** One route's latency series, a child per status answered, made on first use. */
export class HttpRoute {
  private readonly byStatus = new Map<number, Child>();
  constructor(
    private readonly histogram: Histogram<"route" | "method" | "status">,
    private readonly route: string,
    private readonly method: string,
  ) {}

  observe(status: number, seconds: number): void {
    let child = this.byStatus.get(status);
    if (!child) {
      child = this.histogram.labels(this.route, this.method, String(status));
      this.byStatus.set(status, child);
    }
    child.observe(seconds);
  }
}

export interface QueueReading {
  queue: string;
  /** Jobs due now and not yet taken. */
  ready: number;
  /** Jobs waiting for a later start (retry backoff, scheduled work). */
  deferred: number;
  active: number;
  /** How long the oldest due job has waited, in seconds (0 when none is due). */
  oldestReadySeconds: number;
}

/** Gauges read at scrape time from the database: set by the composition root once the queue exists. */
export interface ScrapeSources {
  queues?: () => Promise<QueueReading[]>;
  /** Broadcasts by status (only the statuses still in progress). */
  broadcasts?: () => Promise<{ status: string; count: number }[]>;
}

export type JobOutcome = "completed" | "failed";
export type WebhookAttemptResult = "succeeded" | "http_error" | "no_answer";
export type ProviderSendOutcome = "accepted" | "refused" | "retryable" | "error";
export type BroadcastRecipientOutcome = "accepted" | "failed" | "retried";
/** published: handed to the bus; failed: the bus refused or was unreachable; dropped: over the process's pending cap. */
export type InboxEventOutcome = "published" | "failed" | "dropped";

// eslint-disable-next-line max-lines-per-function -- one registry and its series, declared side by side so names and labels read as one list
export function createMetrics(options: { processMetrics?: boolean } = {}) {
  const registry = new Registry();
  const sources: ScrapeSources = {};
  const routes = new Map<string, HttpRoute>();
  const http = new Histogram({
    name: "svc_http_request_duration_seconds",
    help: "Requests answered by the API routers, by route template, method and status (the _count is the request rate).",
    labelNames: ["route", "method", "status"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const jobs = new Histogram({
    name: "svc_job_duration_seconds",
    help: "Background job runs in this process by queue and outcome (failed: it threw; pg-boss retries it while attempts remain).",
    labelNames: ["queue", "outcome"] as const,
    buckets: JOB_BUCKETS,
    registers: [registry],
  });
  const webhookAttempts = new Histogram({
    name: "svc_webhook_attempt_duration_seconds",
    help: "Webhook delivery attempts: the receiver's answer time, by result (succeeded: 2xx; http_error: another status; no_answer: timeout, network, blocked).",
    labelNames: ["result"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const webhookDeliveries = new Counter({
    name: "svc_webhook_deliveries_total",
    help: "Webhook delivery attempts by what they settled (succeeded, retry_scheduled, failed after the last attempt, gone on 410, paused).",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const providerSends = new Histogram({
    name: "svc_provider_send_duration_seconds",
    help: "Messages handed to the provider, by platform and outcome (refused: a final refusal; retryable: tried again).",
    labelNames: ["platform", "outcome"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const broadcastRecipients = new Counter({
    name: "svc_broadcast_recipients_total",
    help: "Broadcast recipients handed to the provider, by outcome.",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const sandboxRuns = new Histogram({
    name: "svc_sandbox_run_duration_seconds",
    help: "Hosted function runs in the sandbox, by outcome.",
    labelNames: ["outcome"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const sandboxLimits = new Counter({
    name: "svc_sandbox_limits_hit_total",
    help: "Hosted function runs stopped by a limit, by limit.",
    labelNames: ["limit"] as const,
    registers: [registry],
  });
  const inboxEvents = new Counter({
    name: "svc_inbox_events_total",
    help: "Inbox live-update events (lib/domain/inbox-live) by outcome; a failed or dropped one only delays the dashboard to its next poll.",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const inboxStreams = new Gauge({
    name: "svc_inbox_streams",
    help: "Dashboard inbox event streams (Server-Sent Events) open in this process.",
    registers: [registry],
  });
  queueGauges(registry, sources);
  new Gauge({
    name: "svc_broadcasts",
    help: "Broadcasts not finished yet, by status (read from the database at scrape).",
    labelNames: ["status"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await sources.broadcasts?.()) ?? []) this.set({ status: row.status }, row.count);
    },
  });
  if (options.processMetrics) collectDefaultMetrics({ register: registry, prefix: "svc_" });

  return {
    registry,
    /** The recorder of one route (`route` a template such as /api/v1/messages/{id}); keep it, it is made once. */
    httpRoute(route: string, method: string): HttpRoute {
      const key = `${method} ${route}`;
      let recorder = routes.get(key);
      if (!recorder) routes.set(key, (recorder = new HttpRoute(http, route, method)));
      return recorder;
    },
    jobRun(queue: string, outcome: JobOutcome, seconds: number): void {
      jobs.labels(queue, outcome).observe(seconds);
    },
    webhookAttempt(result: WebhookAttemptResult, seconds: number): void {
      webhookAttempts.labels(result).observe(seconds);
    },
    webhookDelivery(outcome: string): void {
      webhookDeliveries.labels(outcome).inc();
    },
    providerSend(platform: string, outcome: ProviderSendOutcome, seconds: number): void {
      providerSends.labels(platform, outcome).observe(seconds);
    },
    broadcastRecipient(outcome: BroadcastRecipientOutcome): void {
      broadcastRecipients.labels(outcome).inc();
    },
    /** `limit`: the sandbox's error code when a limit stopped the run, else null. */
    sandboxRun(outcome: "ok" | "error", limit: string | null, seconds: number): void {
      sandboxRuns.labels(outcome).observe(seconds);
      if (limit) sandboxLimits.labels(limit).inc();
    },
    inboxEvents(outcome: InboxEventOutcome, count = 1): void {
      inboxEvents.labels(outcome).inc(count);
    },
    /** +1 when a stream opens, -1 when it ends. */
    inboxStreams(delta: 1 | -1): void {
      inboxStreams.inc(delta);
    },
    setScrapeSources(next: ScrapeSources): void {
      Object.assign(sources, next);
    },
    /** The text exposition format, with the scrape-time gauges read now. */
    async render(): Promise<{ contentType: string; body: string }> {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

export type MetricsPort = ReturnType<typeof createMetrics>;

function queueGauges(registry: Registry, sources: ScrapeSources): void {
  // One database read per scrape feeds the three gauges: the first gauge collected reads, the others reuse it.
  let pending: Promise<QueueReading[]> | null = null;
  const read = () => {
    pending ??= (sources.queues?.() ?? Promise.resolve([])).finally(() => setTimeout(() => (pending = null), 0).unref());
    return pending;
  };
  const gauge = (name: string, help: string, pick: (reading: QueueReading) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["queue"] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const reading of await read()) this.set({ queue: reading.queue }, pick(reading));
      },
    });
  gauge("svc_queue_ready_jobs", "Jobs due now and not yet taken by a worker, by queue (read from pg-boss at scrape).", (r) => r.ready);
  gauge("svc_queue_deferred_jobs", "Jobs waiting for a later start (retry backoff, scheduled work), by queue.", (r) => r.deferred);
  gauge("svc_queue_active_jobs", "Jobs taken by a worker and not settled yet, by queue (all processes).", (r) => r.active);
  gauge("svc_queue_oldest_ready_age_seconds", "How long the oldest due job of each queue has waited.", (r) => r.oldestReadySeconds);
}
