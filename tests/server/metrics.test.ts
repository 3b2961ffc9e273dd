import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "../support/receiver";
import type { Harness } from "../messages/support";
import { joinCodeOf, joinTesters, send, settleUntil, startSendHarness, testerNumber } from "../messages/send-support";
import { deployed } from "../functions/support";
import type { Seeded } from "../support/app";
import { startWorkerListener } from "@/lib/server/worker-listener";
import { startTestServer } from "../support/http-server";

/**
 * GET /metrics over a real HTTP server after real traffic (README "Health and metrics"): API
 * requests by route template and status, job runs by queue and outcome, webhook attempts and
 * deliveries, provider sends, sandbox runs and a limit hit, and the queue gauges read at scrape.
 * Guarded by the bearer token; no tenant id in any label.
 */
const TOKEN = "metrics-test-token-0123456789";
let h: Harness;
let seeded: Seeded;
let receiver: Receiver;

beforeAll(async () => {
  h = await startSendHarness({ metricsToken: TOKEN });
  seeded = await h.app.seed();
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver.close();
  await h.close();
});

async function scrape(token: string | null = TOKEN) {
  const response = await fetch(`${h.server.url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
}

/** The value of one sample, `name{labels}` with exactly these labels (in any order); 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split("\n")) {
    const match = /^([a-z_:]+)\{(.*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.keys(found).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return 0;
}

describe("GET /metrics", () => {
  it("needs the bearer token: none or a wrong one is 401", async () => {
    expect((await scrape(null)).status).toBe(401);
    expect((await scrape("not-the-token")).status).toBe(401);
  });

  it("does not exist (404) on a process without SVC_METRICS_TOKEN", async () => {
    const bare = await startTestServer(() => h.app.runtime);
    try {
      const response = await fetch(`${bare.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.status).toBe(404);
    } finally {
      await bare.close();
    }
  });

  it("is served by a worker on its own listener (SVC_WORKER_METRICS_PORT) with /healthz and /readyz, and nothing else", async () => {
    const listener = await startWorkerListener(h.app.runtime, { port: 0, host: "127.0.0.1", metricsToken: TOKEN });
    try {
      const metrics = await fetch(`${listener.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain("# TYPE svc_job_duration_seconds histogram");
      expect((await fetch(`${listener.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${listener.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${listener.url}/readyz`)).status).toBe(200);
      expect((await fetch(`${listener.url}/api/v1/identity`)).status).toBe(404);
    } finally {
      await listener.close();
    }
  });

  it("moves the request, job, webhook, provider, sandbox and queue series with real traffic, labels by template only", async () => {
    const before = await scrape();
    expect(before.status).toBe(200);
    expect(before.type).toContain("text/plain");
    const identity = (text: string) => sample(text, "svc_http_request_duration_seconds_count", { route: "/api/v1/identity", method: "GET", status: "200" });

    // API requests: a route with an id in its path, an unmatched path, and the identity three times.
    for (let i = 0; i < 3; i++) expect((await h.app.call("GET", "/identity", { key: seeded.key })).status).toBe(200);
    expect((await h.app.call("GET", "/conversations/conv_doesnotexist", { key: seeded.key })).status).toBe(404);
    expect((await h.app.call("GET", "/no-such-thing/abc", { key: seeded.key })).status).toBe(404);

    // A tester joins (ingest jobs, a webhook delivery to the receiver), then gets a message (a provider send).
    await h.app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { webhook_url: `${receiver.url}/hook` } });
    const tester = testerNumber();
    const { conversations } = await joinTesters(h, seeded.key, await joinCodeOf(h, seeded.projectId), [tester]);
    const sent = await send(h, seeded.key, { channel_id: "ch_sandbox", conversation_id: conversations[tester], text: "hello" });
    expect(sent.status).toBe(200);
    expect(await settleUntil(h, async () => (await h.messageRow(sent.body.id)).platformMessageId !== null)).toBe(true);
    expect(await settleUntil(h, async () => receiver.received.length > 0)).toBe(true);

    // Hosted functions: one run that returns, one stopped by the CPU limit.
    const echo = await deployed(h.app, seeded.key, "metrics-echo", "export default async function (event) { return event; }");
    expect((await h.app.call("POST", `/functions/${echo.id}/invoke`, { key: seeded.key, body: { arguments: {} } })).body.status).toBe("ok");
    const spin = await deployed(h.app, seeded.key, "metrics-spin", "export default async function () { for (;;) {} }");
    const spun = await h.app.call("POST", `/functions/${spin.id}/invoke`, { key: seeded.key, body: { arguments: {} } });
    expect(spun.body.error).toMatch(/^cpu_limit_exceeded/);

    const after = await scrape();
    expect(after.status).toBe(200);
    const { text } = after;
    expect(identity(text) - identity(before.text)).toBe(3);
    expect(
      sample(text, "svc_http_request_duration_seconds_count", { route: "/api/v1/conversations/{id}", method: "GET", status: "404" }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, "svc_http_request_duration_seconds_count", { route: "/api/v1 (unmatched)", method: "GET", status: "404" })).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, "svc_http_request_duration_seconds_count", { route: "/api/providers/{platform}/webhook", method: "POST", status: "200" }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, "svc_job_duration_seconds_count", { queue: "ingest.process", outcome: "completed" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "svc_job_duration_seconds_count", { queue: "provider.send", outcome: "completed" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "svc_job_duration_seconds_count", { queue: "webhook.deliver", outcome: "completed" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "svc_webhook_attempt_duration_seconds_count", { result: "succeeded" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "svc_webhook_deliveries_total", { outcome: "succeeded" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "svc_provider_send_duration_seconds_count", { platform: "PLATFORM_A", outcome: "accepted" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "svc_sandbox_run_duration_seconds_count", { outcome: "ok" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "svc_sandbox_limits_hit_total", { limit: "cpu_limit_exceeded" })).toBeGreaterThanOrEqual(1);
    // Read from pg-boss at scrape: every defined queue has its gauges, the queue names being the labels.
    expect(text).toMatch(/^svc_queue_ready_jobs\{queue="provider\.send"\} \d+$/m);
    expect(text).toMatch(/^svc_queue_oldest_ready_age_seconds\{queue="webhook\.deliver"\} [\d.e+-]+$/m);
    expect(text).toContain("# TYPE svc_broadcasts gauge");
    // No tenant data: no project, key, conversation or message id, no phone number, no raw path.
    for (const secret of [seeded.projectId, seeded.keyId, conversations[tester]!, sent.body.id as string, tester, "conv_doesnotexist", "/no-such-thing"]) {
      expect(text).not.toContain(secret);
    }
  }, 60_000);
});
