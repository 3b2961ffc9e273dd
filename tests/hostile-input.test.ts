import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatch } from "@/lib/api/router";
import { MAX_JSON_BODY_BYTES, MAX_JSON_DEPTH, nestsDeeperThan } from "@/lib/api/request-input";
import { isStorable, toStorable } from "@/lib/text/storable";
import { createTestApp, type Seeded, type TestApp } from "./support/app";

/**
 * Hostile input through the real router: every row must be a clear 4xx in the spec's error shape,
 * never a 500 (docs/api-decisions.md → "Request limits").
 */
let app: TestApp;
let acme: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
});
afterAll(() => app?.close());

async function send(method: string, path: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}) {
  const headers = new Headers({ authorization: `Bearer ${acme.key}`, "content-type": "application/json", ...init.headers });
  const stream = typeof ReadableStream !== "undefined" && init.body instanceof ReadableStream;
  const request = new Request(`http://svc.test/api/v1${path}`, { method, headers, body: init.body, ...(stream ? { duplex: "half" } : {}) } as RequestInit);
  const res = await dispatch(request, new URL(request.url).pathname.replace(/^\/api\/v1/, ""), app.runtime);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe("strings Postgres cannot store", () => {
  const cases: { name: string; method: string; path: () => string; body?: unknown; field: string }[] = [
    { name: "NUL in a body string", method: "PATCH", path: () => `/projects/${acme.projectId}`, body: { name: "a\u0000b" }, field: "name" },
    { name: "lone surrogate in a body string", method: "PATCH", path: () => `/projects/${acme.projectId}`, body: { name: "a\ud800b" }, field: "name" },
    {
      name: "NUL in a nested body string",
      method: "POST",
      path: () => "/messages",
      body: { channel_id: "ch_sandbox", to: "+14155550123", text: { body: "x\u0000" } },
      field: "text.body",
    },
    { name: "NUL in a body key", method: "POST", path: () => "/contacts", body: { "na\u0000me": "x" }, field: "na\\u0000me" },
    {
      name: "lone surrogate in an array item",
      method: "POST",
      path: () => "/webhook-deliveries/replay",
      body: { event_types: ["\udc00"] },
      field: "event_types.0",
    },
    { name: "NUL in a query value", method: "GET", path: () => "/conversations?q=%00", field: "q" },
    { name: "lone surrogate in a query value", method: "GET", path: () => "/contacts?cursor=%ED%A0%80", field: "cursor" },
    { name: "NUL in a path parameter", method: "GET", path: () => "/messages/msg_%00", field: "id" },
  ];
  for (const c of cases) {
    it(`${c.name} → 400 invalid_request naming the field`, async () => {
      const res = await send(c.method, c.path(), c.body === undefined ? {} : { body: JSON.stringify(c.body) });
      if (c.name.includes("lone surrogate in a query")) {
        // Percent-decoding invalid UTF-8 already gives U+FFFD: storable, so the request goes on (no 500).
        expect(res.status).toBeLessThan(500);
        return;
      }
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_request");
      expect(Object.keys(res.body.issues)).toEqual([c.field]);
    });
  }

  it("the storable rule: NUL and lone surrogates are found and replaced; pairs are kept", () => {
    expect(isStorable("emoji \ud83d\ude00 ok")).toBe(true);
    expect(isStorable("a\u0000")).toBe(false);
    expect(isStorable("\ud800")).toBe(false);
    expect(isStorable("\ude00")).toBe(false);
    expect(toStorable("a\u0000b\ud800c\ud83d\ude00\udc00")).toBe("a\uFFFDb\uFFFDc\ud83d\ude00\uFFFD");
  });
});

describe("body keys that name Object.prototype members", () => {
  for (const key of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]) {
    it(`a body key '${key}' is an unknown field (400), not a 500`, async () => {
      const res = await send("PATCH", `/projects/${acme.projectId}`, { body: `{"${key}": {"polluted": true}, "name": "x"}` });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_request");
      expect(res.body.issues[key]).toBeDefined();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it(`a query key '${key}' is refused or ignored, not a 500`, async () => {
      const res = await send("GET", `/conversations?${key}=1`);
      expect([200, 400]).toContain(res.status);
    });
  }
});

describe("nesting depth", () => {
  it(`JSON deeper than ${MAX_JSON_DEPTH} levels is refused before parsing, also with an Idempotency-Key`, async () => {
    const deep = "[".repeat(10_000) + "]".repeat(10_000);
    const res = await send("POST", "/messages", {
      body: `{"channel_id":"ch_sandbox","to":"+14155550123","text":${deep}}`,
      headers: { "idempotency-key": "deep-1" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_json", max_depth: MAX_JSON_DEPTH });
  });

  it("the depth scan ignores brackets inside strings and escaped quotes", () => {
    expect(nestsDeeperThan(`{"a":"${"[".repeat(100)}"}`, 2)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\"[[[[","b":[[1]]}`, 3)).toBe(false);
    expect(nestsDeeperThan(`{"b":[[[1]]]}`, 3)).toBe(true);
  });
});

describe("body size", () => {
  const big = JSON.stringify({ name: "x".repeat(MAX_JSON_BODY_BYTES) });

  it("a declared Content-Length over the cap → 413 payload_too_large before reading", async () => {
    const res = await send("PATCH", `/projects/${acme.projectId}`, { body: big, headers: { "content-length": String(big.length) } });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: "payload_too_large", max_bytes: MAX_JSON_BODY_BYTES });
  });

  it("a streamed body with no Content-Length over the cap → 413 (the rest read and dropped, within the drain bound)", async () => {
    let pulled = 0;
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled === 1) controller.enqueue(new TextEncoder().encode('{"name":"'));
        else if (pulled > 1000) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const res = await send("PATCH", `/projects/${acme.projectId}`, { body: stream });
    expect(res.status).toBe(413);
    // Read to its end (62.5 MiB is within REFUSED_BODY_DRAIN) so the 413 survives the connection's close;
    // tests/refused-body.test.ts shows the drain letting go past its bound.
    expect(pulled).toBe(1001);
  });

  it("a body just under the cap is read (and judged by its schema)", async () => {
    const res = await send("PATCH", `/projects/${acme.projectId}`, { body: JSON.stringify({ name: "ok", pad: "x".repeat(MAX_JSON_BODY_BYTES - 100) }) });
    expect(res.status).toBe(400);
    expect(res.body.issues.pad).toBeDefined();
  });
});
