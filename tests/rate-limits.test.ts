import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertPlan } from "@/lib/domain/plans";
import { createTestApp, type Seeded, type TestApp } from "./support/app";
import { expectError, expectHandlerHeaders, expectRateLimitHeaders } from "./support/wire";

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
  await upsertPlan(app.db, {
    id: "rl_tiny",
    name: "Tiny window",
    requestsPerWindow: 3,
    windowSeconds: 60,
    monthlyRequests: 1_000_000,
    mediaRetentionSeconds: 86_400,
  });
  await upsertPlan(app.db, {
    id: "rl_quota",
    name: "Tiny quota",
    requestsPerWindow: 100,
    windowSeconds: 60,
    monthlyRequests: 2,
    mediaRetentionSeconds: 86_400,
  });
});
afterAll(() => app?.close());

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe("per-key rate limit (custom plan: 3 requests / 60 s)", () => {
  let tinies = 0;
  const seedTiny = () => app.seed({ orgName: `Tiny ${++tinies}`, planId: "rl_tiny" });

  /** A project on the tiny plan whose key has used up its window (3 requests). */
  async function exhausted(): Promise<Seeded> {
    const tiny = await seedTiny();
    for (let i = 0; i < 3; i++) expect((await app.call("GET", "/identity", { key: tiny.key })).status).toBe(200);
    return tiny;
  }

  it("counts down RateLimit-Remaining, then the 4th request is a 429 rate_limit with body and headers", async () => {
    const tiny = await seedTiny();
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await app.call("GET", "/identity", { key: tiny.key });
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBe("3");
      remaining.push(res.headers.get("ratelimit-remaining")!);
      const reset = Number(res.headers.get("ratelimit-reset"));
      expect(reset).toBeGreaterThanOrEqual(nowSeconds());
      expect(reset).toBeLessThanOrEqual(nowSeconds() + 61);
    }
    expect(remaining).toEqual(["2", "1", "0"]);

    const limited = await app.call("GET", "/identity", { key: tiny.key });
    expectError(limited, 429, "rate_limit");
    expectHandlerHeaders(limited);
    expect(limited.body).toEqual({ error: "rate_limit", message: expect.any(String), limit: 3, remaining: 0, reset_at: expect.any(String) });
    const resetAt = new Date(limited.body.reset_at).getTime();
    expect(new Date(limited.body.reset_at).toISOString()).toBe(limited.body.reset_at);
    expect(resetAt).toBeGreaterThan(Date.now() - 1000);
    expect(resetAt).toBeLessThanOrEqual(Date.now() + 61_000);
    expect(limited.headers.get("ratelimit-limit")).toBe("3");
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(limited.headers.get("ratelimit-reset"))).toBe(Math.ceil(resetAt / 1000));
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get("x-svc-limit-type")).toBe("rate_limit");
  });

  it("stays limited for every endpoint of that key, and a limited write does nothing", async () => {
    const tiny = await exhausted();
    const write = await app.call("PATCH", `/projects/${tiny.projectId}`, { key: tiny.key, body: { name: "Limited" } });
    expectError(write, 429, "rate_limit");
    const list = await app.call("GET", "/projects", { key: tiny.key });
    expectError(list, 429, "rate_limit");
    const project = await app.call("GET", `/projects/${tiny.projectId}`, { key: await app.addKey(tiny, ["projects:read"]) });
    expect(project.status).toBe(200);
    expect(project.body.name).toBe("Main");
  });

  it("is per key: another key of the same project has its own window", async () => {
    const tiny = await exhausted();
    const other = await app.addKey(tiny, ["*"]);
    const res = await app.call("GET", "/identity", { key: other });
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-remaining")).toBe("2");
  });

  it("401s are not limited by someone else's key", async () => {
    const res = await app.call("GET", "/identity");
    expectError(res, 401, "missing_api_key");
    expect(res.headers.get("ratelimit-limit")).toBeNull();
  });

  it("refused requests (403, 400) count against the window too and carry the headers", async () => {
    const s = await app.seed({ orgName: "Tiny 2", planId: "rl_tiny", scopes: ["limits:read", "projects:read"] });
    const forbidden = await app.call("PATCH", `/projects/${s.projectId}`, { key: s.key, body: { name: "x" } });
    expectError(forbidden, 403, "insufficient_scope");
    expect(forbidden.headers.get("ratelimit-remaining")).toBe("2");
    const invalid = await app.call("GET", "/projects?limit=0", { key: s.key });
    expectError(invalid, 400, "invalid_request");
    expect(invalid.headers.get("ratelimit-remaining")).toBe("1");
    expect((await app.call("GET", "/limits", { key: s.key })).headers.get("ratelimit-remaining")).toBe("0");
    expectError(await app.call("GET", "/limits", { key: s.key }), 429, "rate_limit");
  });

  it("the 429 takes precedence over a missing scope (limit checked right after the key)", async () => {
    const s = await app.seed({ orgName: "Tiny 3", planId: "rl_tiny", scopes: ["limits:read"] });
    for (let i = 0; i < 3; i++) await app.call("GET", "/limits", { key: s.key });
    expectError(await app.call("GET", "/projects", { key: s.key }), 429, "rate_limit");
  });
});

describe("RateLimit-* headers on every keyed response", () => {
  it("success, 400, 403 and 404 responses all carry them, with the plan's limit", async () => {
    const s = await app.seed({ orgName: "Headers" });
    const narrow = await app.addKey(s, ["limits:read"]);
    const responses = [
      await app.call("GET", "/identity", { key: s.key }),
      await app.call("GET", "/limits", { key: s.key }),
      await app.call("GET", "/projects", { key: s.key }),
      await app.call("GET", `/projects/${s.projectId}`, { key: s.key }),
      await app.call("POST", "/projects", { key: s.key, body: { name: "H" } }),
      await app.call("PATCH", `/projects/${s.projectId}`, { key: s.key, body: { name: "H2" } }),
      await app.call("POST", `/projects/${s.projectId}/rotate-webhook-secret`, { key: s.key }),
      await app.call("POST", "/projects", { key: s.key, body: { name: "" } }),
      await app.call("GET", "/projects", { key: narrow }),
      await app.call("GET", "/projects/proj_missing", { key: s.key }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 400, 403, 404]);
    for (const res of responses) {
      expectRateLimitHeaders(res);
      expect(res.headers.get("ratelimit-limit")).toBe("600");
      expect(res.headers.get("x-svc-limit-type")).toBeNull();
      expect(res.headers.get("retry-after")).toBeNull();
    }
    // s.key made 9 requests in this window.
    expect(responses[7]!.headers.get("ratelimit-remaining")).toBe(String(600 - 8));
  });

  it("the pro plan's limit shows in the headers", async () => {
    const pro = await app.seed({ orgName: "Pro", planId: "pro" });
    const res = await app.call("GET", "/identity", { key: pro.key });
    expect(res.headers.get("ratelimit-limit")).toBe("3000");
    expect(res.headers.get("ratelimit-remaining")).toBe("2999");
  });
});

describe("idempotent replays are not counted again", () => {
  it("replaying a recorded request leaves the per-minute window as it was", async () => {
    const seeded = await app.seed({ orgName: "Replays", planId: "rl_tiny" });
    const first = await app.call("POST", "/projects", { key: seeded.key, body: { name: "Once" }, headers: { "Idempotency-Key": "replay-window" } });
    expect(first.headers.get("ratelimit-remaining")).toBe("2");
    for (let i = 0; i < 4; i++) {
      const replay = await app.call("POST", "/projects", { key: seeded.key, body: { name: "Once" }, headers: { "Idempotency-Key": "replay-window" } });
      expect(replay.status).toBe(200);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.headers.get("ratelimit-remaining")).toBe("2");
    }
    const next = await app.call("GET", "/identity", { key: seeded.key });
    expect(next.status).toBe(200);
    expect(next.headers.get("ratelimit-remaining")).toBe("1");
  });
});

describe("monthly quota (custom plan: 2 requests / month)", () => {
  it("the 3rd request is a 429 monthly_quota_exceeded with X-Svc-Limit-Type monthly_quota", async () => {
    const s = await app.seed({ orgName: "Quota", planId: "rl_quota" });
    expect((await app.call("GET", "/identity", { key: s.key })).status).toBe(200);
    expect((await app.call("GET", "/limits", { key: s.key })).status).toBe(200);
    const over = await app.call("GET", "/identity", { key: s.key });
    expectError(over, 429, "monthly_quota_exceeded");
    expectHandlerHeaders(over);
    const now = app.clock.now();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    expect(over.body).toEqual({ error: "monthly_quota_exceeded", message: expect.any(String), limit: 2, remaining: 0, reset_at: nextMonth.toISOString() });
    expect(over.headers.get("x-svc-limit-type")).toBe("monthly_quota");
    expect(over.headers.get("ratelimit-limit")).toBe("2");
    expect(over.headers.get("ratelimit-remaining")).toBe("0");
    expect(over.headers.get("ratelimit-reset")).toBe(String(nextMonth.getTime() / 1000));
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("is per key, and a quota-refused write does nothing", async () => {
    const s = await app.seed({ orgName: "Quota 2", planId: "rl_quota" });
    await app.call("GET", "/identity", { key: s.key });
    await app.call("GET", "/identity", { key: s.key });
    const write = await app.call("PATCH", `/projects/${s.projectId}`, { key: s.key, body: { name: "Over quota" } });
    expectError(write, 429, "monthly_quota_exceeded");
    const other = await app.addKey(s, ["*"]);
    const read = await app.call("GET", `/projects/${s.projectId}`, { key: other });
    expect(read.status).toBe(200);
    expect(read.body.name).toBe("Main");
  });

  it("requests refused before the quota check (403, 400) do not use it up", async () => {
    const s = await app.seed({ orgName: "Quota 3", planId: "rl_quota", scopes: ["limits:read"] });
    expectError(await app.call("GET", "/projects", { key: s.key }), 403, "insufficient_scope");
    expectError(await app.call("GET", "/projects", { key: s.key }), 403, "insufficient_scope");
    expect((await app.call("GET", "/limits", { key: s.key })).status).toBe(200);
    expect((await app.call("GET", "/limits", { key: s.key })).status).toBe(200);
    expectError(await app.call("GET", "/limits", { key: s.key }), 429, "monthly_quota_exceeded");
  });

  it("an idempotent replay does not use quota", async () => {
    const s = await app.seed({ orgName: "Quota 4", planId: "rl_quota" });
    const first = await app.call("POST", "/projects", { key: s.key, body: { name: "Q" }, headers: { "Idempotency-Key": "quota-replay" } });
    expect(first.status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const replay = await app.call("POST", "/projects", { key: s.key, body: { name: "Q" }, headers: { "Idempotency-Key": "quota-replay" } });
      expect(replay.status).toBe(200);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
    }
    expect((await app.call("GET", "/identity", { key: s.key })).status).toBe(200);
    expectError(await app.call("GET", "/identity", { key: s.key }), 429, "monthly_quota_exceeded");
  });

  it("resets with the calendar month", async () => {
    const saved = app.clock.now();
    try {
      const s = await app.seed({ orgName: "Quota 5", planId: "rl_quota" });
      app.clock.set(Date.UTC(2030, 2, 31, 23, 0, 0));
      await app.call("GET", "/identity", { key: s.key });
      await app.call("GET", "/identity", { key: s.key });
      const over = await app.call("GET", "/identity", { key: s.key });
      expectError(over, 429, "monthly_quota_exceeded");
      expect(over.body.reset_at).toBe("2030-04-01T00:00:00.000Z");
      app.clock.set(Date.UTC(2030, 3, 1, 0, 0, 1));
      expect((await app.call("GET", "/identity", { key: s.key })).status).toBe(200);
    } finally {
      app.clock.set(saved);
    }
  });
});
