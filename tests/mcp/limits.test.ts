import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { upsertPlan } from "@/lib/domain/plans";
import type { CallResult, Seeded } from "../support/app";
import { API_VERSION, REQUEST_ID, unknownSecretKey } from "../support/wire";
import { startHarness, type Harness } from "../messages/support";
import { joinCodeOf, joinTesters, outboundRows, testerNumber } from "../messages/send-support";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys";

/**
 * POST /api/v1/mcp against docs/spec/decisions.md "Developer tools": "Runs count against the key's
 * rate limit and quota like REST calls", the Origin check of the MCP transport, and the key check.
 * What tests/mcp/server.test.ts already covers (a foreign Origin → 403, MCP-only requests → 429) is
 * not repeated: here REST and MCP share one window and one quota both ways, a send_message call is one
 * quota point like POST /messages, a refused call sends nothing, and the 401/429 bodies and headers
 * are the REST ones.
 *
 * The org's plan starts roomy (its testers join through REST); a test tightens it with upsertPlan and
 * uses a fresh key, whose window and quota start empty.
 */

const PLAN = "mcp_limits";
const ROOMY = { id: PLAN, name: "MCP limits", requestsPerWindow: 10_000, windowSeconds: 600, monthlyRequests: 1_000_000, mediaRetentionSeconds: 86_400 };

let h: Harness;
let acme: Seeded;
/** Joined sandbox testers: each send in this file goes to its own one (1 message per 6 s per pair). */
const testers = [testerNumber(), testerNumber(), testerNumber(), testerNumber()];
let conversations: Record<string, string>;

beforeAll(async () => {
  h = await startHarness();
  await upsertPlan(h.app.db, ROOMY);
  acme = await h.app.seed({ orgName: "MCP Limits Co", planId: PLAN });
  conversations = (await joinTesters(h, acme.key, await joinCodeOf(h, acme.projectId), testers)).conversations;
}, 60_000);
afterAll(async () => {
  await h?.close();
});

/** The org's plan with these limits, and a new key of the org (its counters start at zero). */
async function keyOnPlan(limits: { requestsPerWindow?: number; monthlyRequests?: number }): Promise<string> {
  await upsertPlan(h.app.db, { ...ROOMY, ...limits });
  return h.app.addKey(acme, ["*"]);
}

/** One raw JSON-RPC POST to the MCP endpoint: statuses, headers and error bodies as any client sees them. */
async function mcp(body: unknown, headers: Record<string, string> = {}): Promise<CallResult> {
  const response = await fetch(`${h.server.url}/api/v1/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const toolsList = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
const sendCall = (tester: string, text: string) => ({
  jsonrpc: "2.0",
  id: 2,
  method: "tools/call",
  params: { name: "send_message", arguments: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversations[tester], text } },
});
const sentTexts = async () => (await outboundRows(h, acme.projectId)).map((m) => m.content);

/** What REST and MCP 429s must agree on: the body and the limit headers (reset times aside, they follow the clock). */
function limitAnswer(res: CallResult) {
  return {
    status: res.status,
    body: { ...res.body, message: typeof res.body.message, reset_at: typeof res.body.reset_at },
    limitType: res.headers.get("x-svc-limit-type"),
    limit: res.headers.get("ratelimit-limit"),
    remaining: res.headers.get("ratelimit-remaining"),
    retryAfter: /^[1-9]\d*$/.test(res.headers.get("retry-after") ?? "") ? "whole seconds" : res.headers.get("retry-after"),
    version: res.headers.get("svc-version"),
    requestId: REQUEST_ID.test(res.headers.get("request-id") ?? ""),
  };
}

describe("Origin", () => {
  it("a request with no Origin (a server-side client, not a browser) is served", async () => {
    const res = await mcp(toolsList, bearer(acme.key));
    expect(res.status).toBe(200);
    expect(res.body.result.tools.map((t: { name: string }) => t.name)).toContain("send_message");
  });

  it("a foreign Origin is refused before anything runs: no message sent, no point of the key's window taken", async () => {
    const key = await keyOnPlan({ requestsPerWindow: 5 });
    const before = await sentTexts();
    const refused = await mcp(sendCall(testers[0]!, "from a foreign page"), { ...bearer(key), origin: "https://evil.example" });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "origin_not_allowed", message: expect.stringContaining("https://evil.example"), origin: "https://evil.example" });
    expect(refused.headers.get("svc-version")).toBe(API_VERSION);
    expect(refused.headers.get("request-id")).toMatch(REQUEST_ID);
    expect(await sentTexts()).toEqual(before);
    // The key's first counted request: the whole window was still there.
    const first = await mcp(toolsList, bearer(key));
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-remaining")).toBe("4");
    // Without a key too: the origin is judged first.
    expect((await mcp(toolsList, { origin: "https://evil.example" })).status).toBe(403);
  });

  it("only SVC_PUBLIC_URL's exact origin passes: not the Host the request came to, another port or scheme, nor 'null'", async () => {
    const own = new URL(h.app.runtime.settings.publicUrl);
    // The test server's own address is not SVC_PUBLIC_URL: a rebound DNS name would look like it.
    expect(new URL(h.server.url).origin).not.toBe(own.origin);
    const otherPort = new URL(own.href);
    otherPort.port = String(Number(own.port || (own.protocol === "https:" ? 443 : 80)) + 1);
    const otherScheme = new URL(own.href);
    otherScheme.protocol = own.protocol === "https:" ? "http:" : "https:";
    for (const origin of [new URL(h.server.url).origin, otherPort.origin, otherScheme.origin, "null"]) {
      const res = await mcp(toolsList, { ...bearer(acme.key), origin });
      expect(res.status, origin).toBe(403);
      expect(res.body, origin).toMatchObject({ error: "origin_not_allowed", origin });
    }
    expect((await mcp(toolsList, { ...bearer(acme.key), origin: own.origin })).status).toBe(200);
  });

  it("an origin listed in SVC_MCP_ALLOWED_ORIGINS is served", async () => {
    const saved = process.env.SVC_MCP_ALLOWED_ORIGINS;
    try {
      expect((await mcp(toolsList, { ...bearer(acme.key), origin: "https://agents.example.com" })).status).toBe(403);
      process.env.SVC_MCP_ALLOWED_ORIGINS = "https://console.example.com, https://agents.example.com/";
      for (const origin of ["https://console.example.com", "https://agents.example.com"]) {
        const res = await mcp(toolsList, { ...bearer(acme.key), origin });
        expect(res.status, origin).toBe(200);
        expect(res.body.result.tools.length).toBeGreaterThan(0);
      }
      expect((await mcp(toolsList, { ...bearer(acme.key), origin: "https://agents.example.com:8443" })).status).toBe(403);
    } finally {
      if (saved === undefined) delete process.env.SVC_MCP_ALLOWED_ORIGINS;
      else process.env.SVC_MCP_ALLOWED_ORIGINS = saved;
    }
  });
});

describe("the key's rate limit, shared with REST", () => {
  it("REST requests use up the window MCP counts in; the MCP request then gets REST's 429 (Retry-After, X-Svc-Limit-Type) and sends nothing", async () => {
    const key = await keyOnPlan({ requestsPerWindow: 3 });
    const rest = [];
    for (let i = 0; i < 2; i++) rest.push(await h.app.call("GET", "/identity", { key }));
    expect(rest.map((r) => r.headers.get("ratelimit-remaining"))).toEqual(["2", "1"]);
    // The third point goes to MCP, and it shows in the same headers.
    const served = await mcp(toolsList, bearer(key));
    expect(served.status).toBe(200);
    expect(served.headers.get("ratelimit-limit")).toBe("3");
    expect(served.headers.get("ratelimit-remaining")).toBe("0");

    const before = await sentTexts();
    const limited = await mcp(sendCall(testers[0]!, "over the rate limit"), bearer(key));
    const restLimited = await h.app.call("GET", "/identity", { key });
    expect(limitAnswer(restLimited)).toEqual({
      status: 429,
      body: { error: "rate_limit", message: "string", limit: 3, remaining: 0, reset_at: "string" },
      limitType: "rate_limit",
      limit: "3",
      remaining: "0",
      retryAfter: "whole seconds",
      version: API_VERSION,
      requestId: true,
    });
    expect(limitAnswer(limited)).toEqual(limitAnswer(restLimited));
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(600);
    expect(await sentTexts()).toEqual(before);
  });
});

describe("the key's monthly quota, shared with REST", () => {
  it("a send_message call is one point of the quota, as POST /messages is", async () => {
    const key = await keyOnPlan({ monthlyRequests: 2 });
    const sent = await mcp(sendCall(testers[1]!, "sent over MCP, counted once"), bearer(key));
    expect(sent.status).toBe(200);
    expect(sent.body.result.isError, JSON.stringify(sent.body)).toBeFalsy();
    expect(sent.body.result.structuredContent).toMatchObject({ object: "message", status: "queued" });
    expect(await sentTexts()).toContain("sent over MCP, counted once");
    // One point left, not zero (counted once) and not two (counted at all).
    expect((await h.app.call("GET", "/identity", { key })).status).toBe(200);
    const over = await h.app.call("GET", "/identity", { key });
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ error: "monthly_quota_exceeded", limit: 2, remaining: 0 });
  });

  it("a quota spent over REST (POST /messages) refuses the MCP send with REST's 429 monthly_quota_exceeded, and nothing is sent", async () => {
    const key = await keyOnPlan({ monthlyRequests: 2 });
    const rest = await h.app.call("POST", "/messages", {
      key,
      body: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversations[testers[2]!], text: "sent over REST" },
    });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect((await h.app.call("GET", "/identity", { key })).status).toBe(200);

    const before = await sentTexts();
    const refused = await mcp(sendCall(testers[3]!, "over the monthly quota"), bearer(key));
    const restRefused = await h.app.call("GET", "/identity", { key });
    expect(limitAnswer(restRefused)).toMatchObject({ status: 429, body: { error: "monthly_quota_exceeded", limit: 2 }, limitType: "monthly_quota" });
    expect(limitAnswer(refused)).toEqual(limitAnswer(restRefused));
    expect(refused.body.reset_at).toBe(restRefused.body.reset_at);
    expect(await sentTexts()).toEqual(before);
  });
});

describe("the API key", () => {
  const expect401 = (res: CallResult, error: "missing_api_key" | "invalid_api_key") => {
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error, message: expect.any(String) });
    expect(res.body.message.length).toBeGreaterThan(0);
    expect(res.headers.get("svc-version")).toBe(API_VERSION);
    expect(res.headers.get("request-id")).toMatch(REQUEST_ID);
    // No key, no window: nothing to report.
    expect(res.headers.get("ratelimit-limit")).toBeNull();
  };

  it("no Authorization header: 401 missing_api_key in the API's error shape", async () => {
    expect401(await mcp(toolsList), "missing_api_key");
  });

  it("an unknown, revoked, malformed or publishable key: 401 invalid_api_key, and no tool runs", async () => {
    const before = await sentTexts();
    const revoked = await h.app.addKey(acme, ["*"]);
    expect((await mcp(toolsList, bearer(revoked))).status).toBe(200);
    await h.app.db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(eq(apiKeys.keyHash, (await import("@/lib/crypto/secrets")).sha256Hex(revoked)));
    forgetAuthenticatedKeys();
    const publishable = await h.app.addKey(acme, [], "publishable");
    const attempts = [
      bearer(unknownSecretKey()),
      bearer(revoked),
      { authorization: `Basic ${Buffer.from(`user:${acme.key}`).toString("base64")}` },
      { authorization: `Bearer ${acme.key} extra` },
      bearer(publishable),
      { "x-svc-publishable-key": publishable },
    ];
    for (const headers of attempts) expect401(await mcp(sendCall(testers[0]!, "with a bad key"), headers), "invalid_api_key");
    expect(await sentTexts()).toEqual(before);
  });
});
