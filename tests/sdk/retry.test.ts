/**
 * @svc/sdk's retries: a real 429 from the API (a plan of 3 requests a minute) waited out for exactly
 * its Retry-After, a Retry-After too long to wait handed back at once, and a 503 from a loopback
 * server retried with the same Idempotency-Key; Retry-After in both of RFC 9110's forms.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSvcClient, retryAfterMs, SvcApiError, unwrap } from "@svc/sdk";
import { upsertPlan } from "@/lib/domain/plans";
import { startHarness, type Harness } from "../messages/support";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await upsertPlan(h.app.db, {
    id: "sdk_tiny",
    name: "SDK tiny window",
    requestsPerWindow: 3,
    windowSeconds: 60,
    monthlyRequests: 1_000_000,
    mediaRetentionSeconds: 86_400,
  });
});
afterAll(() => h?.close());

/** A client whose waits are recorded instead of slept, and whose attempts are counted with their answers. */
function recordingClient(apiKey: string, baseUrl: string, retry: { maxRetryAfterMs?: number } = {}) {
  const sleeps: number[] = [];
  const attempts: { status: number; retryAfter: string | null; key: string | null }[] = [];
  const client = createSvcClient({
    apiKey,
    baseUrl,
    maxRetries: 2,
    retry: { ...retry, sleep: async (ms) => void sleeps.push(ms) },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      attempts.push({ status: response.status, retryAfter: response.headers.get("Retry-After"), key: (input as Request).headers.get("Idempotency-Key") });
      return response;
    },
  });
  return { client, sleeps, attempts };
}

describe("429 from the API", () => {
  it("waits exactly Retry-After between attempts, then hands the last 429 back as SvcApiError rate_limit", async () => {
    const tiny = await h.app.seed({ orgName: "SDK tiny", planId: "sdk_tiny" });
    const { client, sleeps, attempts } = recordingClient(tiny.key, `${h.server.url}/api/v1`);
    for (let i = 0; i < 3; i++) await unwrap(client.GET("/contacts"));
    expect(attempts.map((a) => a.status)).toEqual([200, 200, 200]);

    const error = await unwrap(client.GET("/contacts")).catch((e: unknown) => e);
    expect(SvcApiError.is(error) && error.status === 429 && error.code === "rate_limit").toBe(true);
    const limited = attempts.slice(3);
    // The first try and both retries were all refused: the window is a minute long.
    expect(limited.map((a) => a.status)).toEqual([429, 429, 429]);
    const waited = limited.slice(0, 2).map((a) => Number(a.retryAfter) * 1000);
    expect(waited.every((ms) => ms > 0 && ms <= 60_000)).toBe(true);
    expect(sleeps).toEqual(waited);
  });

  it("does not wait out a Retry-After longer than maxRetryAfterMs: the 429 comes back at once", async () => {
    const tiny = await h.app.seed({ orgName: "SDK tiny 2", planId: "sdk_tiny" });
    const { client, sleeps, attempts } = recordingClient(tiny.key, `${h.server.url}/api/v1`, { maxRetryAfterMs: 500 });
    for (let i = 0; i < 3; i++) await unwrap(client.GET("/contacts"));
    const { response } = await client.GET("/contacts");
    expect(response.status).toBe(429);
    expect(attempts).toHaveLength(4);
    expect(sleeps).toEqual([]);
  });
});

describe("503 from a server that is briefly unavailable", () => {
  let server: http.Server;
  let url: string;
  const seen: { method: string; key: string | undefined }[] = [];
  let unavailable = 0;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ method: req.method!, key: req.headers["idempotency-key"] as string | undefined });
      if (unavailable > 0) {
        unavailable--;
        res.writeHead(503, { "content-type": "application/json", "retry-after": "1" });
        res.end(JSON.stringify({ error: "service_unavailable", message: "Database unavailable: retry.", request_id: "req_test" }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "contact", id: "ct_1" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("retries a POST after Retry-After: 1 with the same Idempotency-Key", async () => {
    seen.length = 0;
    unavailable = 1;
    const { client, sleeps } = recordingClient("svc_live_test", url);
    const contact = await unwrap(client.POST("/contacts", { body: { phone: "+14155550100" } }));
    expect(contact).toMatchObject({ id: "ct_1" });
    expect(seen).toHaveLength(2);
    expect(seen[0]!.key).toBeTruthy();
    expect(seen[1]!.key).toBe(seen[0]!.key);
    expect(sleeps).toEqual([1000]);
  });

  it("gives up after maxRetries and returns the 503 with its request id", async () => {
    seen.length = 0;
    unavailable = 10;
    const { client, sleeps } = recordingClient("svc_live_test", url);
    const error = await unwrap(client.GET("/contacts")).catch((e: unknown) => e);
    expect(SvcApiError.is(error) && error.status === 503 && error.requestId === "req_test").toBe(true);
    expect(seen).toHaveLength(3);
    expect(sleeps).toEqual([1000, 1000]);
  });
});

describe("retryAfterMs", () => {
  it("reads delta-seconds and HTTP dates, and nothing else", () => {
    const now = Date.parse("2026-11-28T10:00:00Z");
    expect(retryAfterMs("7", now)).toBe(7000);
    expect(retryAfterMs(" 0 ", now)).toBe(0);
    expect(retryAfterMs("Sat, 28 Nov 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterMs("Sat, 28 Nov 2026 09:59:00 GMT", now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs("soon", now)).toBeNull();
    expect(retryAfterMs("-5", now)).toBeNull();
  });
});
