import { afterEach, describe, expect, it } from "vitest";
import http from "node:http";
import { appSecretFor, signPayload, verifySignature, verifyTokenFor } from "@/lib/ports/provider/app-secret";
import { graphRequest, httpFailure, isRetryable } from "@/lib/ports/provider/graph-http";
import { createProviderPort } from "@/lib/ports/provider";
import { closeServer, listenOn } from "@/lib/server/node-http";
import { ProviderError } from "@/lib/ports/provider/types";

const AT = new Date("2026-06-18T12:00:00.000Z");
const channel = { platform: "PLATFORM_A" as const, senderId: "1065", accessToken: "EAAtoken" };

type Call = { url: string; init: RequestInit };

function fakeFetch(status: number, body: unknown, calls: Call[] = []): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(input), init: init ?? {} });
    const text = typeof body === "string" ? body : JSON.stringify(body);
    return new Response(text, { status, headers: { "Content-Type": "application/json" } });
  }) as typeof fetch;
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }
  throw new Error("expected a ProviderError");
}

function port(fetchImpl: typeof fetch, timeoutMs?: number) {
  return createProviderPort({ graphUrl: "https://graph.example/v23.0/", fetch: fetchImpl, now: () => AT, timeoutMs });
}

const text = { content: { kind: "text" as const, text: "hi" } };

describe("graph client", () => {
  it("posts JSON with the Bearer token to {graphUrl}/{sender}/messages and returns the wamid", async () => {
    const calls: Call[] = [];
    const answer = { messaging_product: "whatsapp", contacts: [{ input: "15551234567", wa_id: "15551234567" }], messages: [{ id: "wamid.HBgX" }] };
    const result = await port(fakeFetch(200, answer, calls)).send(channel, "15551234567", text);
    expect(result).toEqual({ platformMessageId: "wamid.HBgX" });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe("https://graph.example/v23.0/1065/messages");
    expect(calls[0]!.init.method).toBe("POST");
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers.Authorization).toBe("Bearer EAAtoken");
    expect(headers["Content-Type"]).toBe("application/json");
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "15551234567",
      type: "text",
      text: { body: "hi" },
    });
    expect(calls[0]!.init.signal).toBeInstanceOf(AbortSignal);
  });

  it("returns the mid of a Send API answer", async () => {
    const result = await port(fakeFetch(200, { recipient_id: "psid1", message_id: "m_xyz" })).send(
      { platform: "PLATFORM_C", senderId: "page1", accessToken: "t" },
      "psid1",
      text,
    );
    expect(result).toEqual({ platformMessageId: "m_xyz" });
  });

  it("maps a provider error body to every MessageFailure field", async () => {
    const body = {
      error: {
        message: "(#131047) Re-engagement message",
        type: "OAuthException",
        code: 131047,
        error_subcode: 2494010,
        error_data: { messaging_product: "whatsapp", details: "More than 24 hours have passed since the customer last replied." },
        error_user_title: "Message not sent",
        error_user_msg: "The window is closed",
        fbtrace_id: "AbCdEf123",
      },
    };
    const error = await failureOf(port(fakeFetch(400, body)).send(channel, "15551234567", text));
    expect(error.retryable).toBe(false);
    expect(error.failure).toEqual({
      provider: "provider",
      summary: "(#131047) Re-engagement message: More than 24 hours have passed since the customer last replied.",
      code: 131047,
      subcode: 2494010,
      type: "OAuthException",
      title: "Message not sent",
      message: "(#131047) Re-engagement message",
      fbtrace_id: "AbCdEf123",
      http_status: 400,
      occurred_at: AT.toISOString(),
    });
    expect(error.message).toBe(error.failure.summary);
  });

  it.each([
    [131056, true],
    [130429, true],
    [131048, true],
    [80007, true],
    [4, true],
    [131026, false],
    [100, false],
    [190, false],
  ])("code %i → retryable %s", async (code, retryable) => {
    const error = await failureOf(
      port(fakeFetch(code === 190 ? 401 : 400, { error: { message: `(#${code}) x`, type: "OAuthException", code, fbtrace_id: "t" } })).send(
        channel,
        "1555",
        text,
      ),
    );
    expect(error.retryable).toBe(retryable);
    expect(error.failure.code).toBe(code);
    expect(error.failure.provider).toBe("provider");
  });

  it("HTTP 429 and 5xx are retryable even without a Graph body", async () => {
    const throttled = await failureOf(port(fakeFetch(429, "Too Many Requests")).send(channel, "1555", text));
    expect(throttled.retryable).toBe(true);
    expect(throttled.failure).toMatchObject({ provider: "provider", http_status: 429, code: null, message: "Too Many Requests" });
    const down = await failureOf(port(fakeFetch(503, "<html>down</html>")).send(channel, "1555", text));
    expect(down.retryable).toBe(true);
    expect(down.failure.http_status).toBe(503);
    const graph500 = await failureOf(
      port(fakeFetch(500, { error: { message: "An unknown error occurred", type: "OAuthException", code: 1 } })).send(channel, "1555", text),
    );
    expect(graph500.retryable).toBe(true);
    expect(graph500.failure.code).toBe(1);
  });

  it("a network failure is a retryable service fault", async () => {
    const refused = (async () => {
      throw new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:9") });
    }) as typeof fetch;
    const error = await failureOf(port(refused).send(channel, "1555", text));
    expect(error.retryable).toBe(true);
    expect(error.failure).toEqual({
      provider: "service",
      summary: "Could not reach the provider",
      code: "network_error",
      subcode: null,
      type: "network",
      title: null,
      message: "fetch failed (connect ECONNREFUSED 127.0.0.1:9)",
      fbtrace_id: null,
      http_status: null,
      occurred_at: AT.toISOString(),
    });
  });

  it("a timeout (AbortSignal.timeout) is a retryable service fault", async () => {
    const hang = ((_input: string | URL | Request, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(init.signal!.reason));
      })) as typeof fetch;
    const error = await failureOf(port(hang, 20).send(channel, "1555", text));
    expect(error.retryable).toBe(true);
    expect(error.failure).toMatchObject({ provider: "service", code: "timeout", type: "timeout", http_status: null });
  });

  it("a 2xx that is not JSON is final (the message may have gone out)", async () => {
    const error = await failureOf(
      graphRequest({ baseUrl: "https://graph.example", accessToken: "t", fetch: fakeFetch(200, "<html>"), now: () => AT }, { path: "x", body: {} }),
    );
    expect(error.retryable).toBe(false);
    expect(error.failure.code).toBe("invalid_response");
  });

  it("isRetryable and httpFailure are usable on their own", () => {
    expect(isRetryable(429, null)).toBe(true);
    expect(isRetryable(400, "131056")).toBe(true);
    expect(isRetryable(400, 131047)).toBe(false);
    const e = httpFailure(400, { error: { message: "m", code: "613" } }, "", AT);
    expect(e.retryable).toBe(true);
    expect(e.failure.code).toBe(613);
  });
});

describe("app secrets and signatures", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of ["PROVIDER_GRAPH_URL", "PLATFORM_A_APP_SECRET", "PLATFORM_B_VERIFY_TOKEN"]) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  it("falls back to documented dev values only in simulator mode", () => {
    delete process.env.PROVIDER_GRAPH_URL;
    delete process.env.PLATFORM_A_APP_SECRET;
    delete process.env.PLATFORM_B_VERIFY_TOKEN;
    expect(appSecretFor("PLATFORM_A")).toBe("svc-simulator-platform_a");
    expect(appSecretFor("PLATFORM_C")).toBe("svc-simulator-platform_c");
    expect(verifyTokenFor("PLATFORM_B")).toBe("svc-simulator-verify");
    process.env.PROVIDER_GRAPH_URL = "https://graph.example/v23.0";
    expect(appSecretFor("PLATFORM_A")).toBeNull();
    expect(verifyTokenFor("PLATFORM_B")).toBeNull();
    process.env.PLATFORM_A_APP_SECRET = "real-secret";
    process.env.PLATFORM_B_VERIFY_TOKEN = "real-verify";
    expect(appSecretFor("PLATFORM_A")).toBe("real-secret");
    expect(verifyTokenFor("PLATFORM_B")).toBe("real-verify");
  });

  it("signs as sha256=<hex HMAC> and verifies in constant time", () => {
    // HMAC-SHA256("key", "The quick brown fox jumps over the lazy dog")
    const header = signPayload("key", "The quick brown fox jumps over the lazy dog");
    expect(header).toBe("sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8");
    expect(verifySignature("key", "The quick brown fox jumps over the lazy dog", header)).toBe(true);
    expect(verifySignature("key", "The quick brown fox jumps over the lazy cat", header)).toBe(false);
    expect(verifySignature("key", "x", null)).toBe(false);
    expect(verifySignature("key", "x", "md5=abc")).toBe(false);
  });
});

/** The default client (undici's request() over keep-alive connections) against real sockets. */
describe("graphRequest over real HTTP (no fetch injected)", () => {
  async function serve(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
    const server = http.createServer(handler);
    return { url: await listenOn(server), close: () => closeServer(server) };
  }

  it("sends the method, headers and JSON body and reads the JSON answer", async () => {
    const seen: { method: string; auth: string; body: string }[] = [];
    const server = await serve(async (req, res) => {
      let body = "";
      for await (const chunk of req) body += chunk;
      seen.push({ method: req.method!, auth: req.headers.authorization!, body });
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ echoed: JSON.parse(body) }));
    });
    try {
      const options = { baseUrl: `${server.url}/v23.0/`, accessToken: "tok", now: () => AT };
      expect(await graphRequest(options, { path: "/1065/messages", body: { a: 1 } })).toEqual({ echoed: { a: 1 } });
      expect(await graphRequest(options, { path: "1065/messages", body: { a: 2 } })).toEqual({ echoed: { a: 2 } });
      expect(seen.map((s) => [s.method, s.auth, s.body])).toEqual([
        ["POST", "Bearer tok", '{"a":1}'],
        ["POST", "Bearer tok", '{"a":2}'],
      ]);
    } finally {
      await server.close();
    }
  });

  it("an error answer keeps the provider's code; no answer within the timeout, or a stalled body, is a retryable timeout", async () => {
    const server = await serve((req, res) => {
      if (req.url!.includes("error"))
        return void res.writeHead(400).end(JSON.stringify({ error: { message: "(#100) bad", code: 100, type: "OAuthException" } }));
      if (req.url!.includes("stall")) return void res.writeHead(200, { "content-type": "application/json" }).write('{"partial":');
      // "hang": never answers.
    });
    try {
      const options = { baseUrl: server.url, accessToken: "tok", now: () => AT, timeoutMs: 200 };
      const bad = await failureOf(graphRequest(options, { path: "error", body: {} }));
      expect(bad.failure).toMatchObject({ provider: "provider", code: 100, http_status: 400 });
      for (const path of ["hang", "stall"]) {
        const error = await failureOf(graphRequest(options, { path, body: {} }));
        expect(error.retryable).toBe(true);
        expect(error.failure).toMatchObject({ provider: "service", code: "timeout", type: "timeout", http_status: null });
      }
      const refused = await failureOf(graphRequest({ ...options, baseUrl: "http://127.0.0.1:1" }, { path: "x", body: {} }));
      expect(refused.failure).toMatchObject({ code: "network_error", type: "network" });
      expect(refused.retryable).toBe(true);
    } finally {
      await server.close();
    }
  });
});
