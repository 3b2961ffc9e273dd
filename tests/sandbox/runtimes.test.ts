import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "@/lib/ports/sandbox";
import { httpBridge, plain, recordingBridge, startEchoServer, type EchoServer } from "./support";

/**
 * What a function sees (decisions.md "Hosted functions"): both runtimes' entry points, `env` with
 * secrets and KV, fetch through the bridge, the Web globals, console capture, timers, and what the
 * outcome reports (result, logs, cpu_ms, sub_requests).
 */
const sandbox = createSandbox({ poolSize: 2 });
let echo: EchoServer;
beforeAll(async () => {
  echo = await startEchoServer();
});
afterAll(async () => {
  await sandbox.close();
  await echo.close();
});

describe("PLAIN functions", () => {
  it("run a default export with the event and ctx", async () => {
    const code = "export default async function (event, ctx) { return { echoed: event.text, invocation: ctx.invocation_id }; }";
    const outcome = await sandbox.run(plain(code, { event: { text: "hello" } }), recordingBridge());
    expect(outcome).toMatchObject({ status: "ok", error: null, result: { echoed: "hello", invocation: "inv_test" } });
    expect(outcome.duration_ms).toBeGreaterThan(0);
  });

  it("run a `handler` export", async () => {
    const outcome = await sandbox.run(plain("export async function handler(event) { return event.text.toUpperCase(); }"), recordingBridge());
    expect(outcome.result).toBe("HI");
  });

  it("turn an undefined result into null", async () => {
    const outcome = await sandbox.run(plain("export default async function () {}"), recordingBridge());
    expect(outcome).toMatchObject({ status: "ok", result: null });
  });

  it("report a result that is not JSON as an uncaught exception", async () => {
    const outcome = await sandbox.run(plain("export default async function () { return 10n; }"), recordingBridge());
    expect(outcome.error).toMatch(/^uncaught_exception: TypeError/);
  });

  it("report a thrown error with its message and position", async () => {
    const outcome = await sandbox.run(plain("export default async function () {\n  throw new RangeError('bad input');\n}"), recordingBridge());
    expect(outcome.error).toBe("uncaught_exception: RangeError: bad input (at 2:23)");
  });

  it("see the secrets as env", async () => {
    const outcome = await sandbox.run(
      plain("export default async function () { return [env.API_TOKEN, Object.keys(env)]; }", { env: { API_TOKEN: "s3cret" } }),
      recordingBridge(),
    );
    expect(outcome.result).toEqual(["s3cret", ["API_TOKEN"]]);
  });
});

describe("WFP functions", () => {
  it("receive the event as the JSON body of a POST Request and answer with a JSON Response", async () => {
    const code = `export default {
      async fetch(request, env, ctx) {
        const event = await request.json();
        return Response.json({ method: request.method, type: request.headers.get("content-type"), text: event.text, secret: env.KEY, ctx: ctx.invocation_id, wait: typeof ctx.waitUntil });
      },
    };`;
    const outcome = await sandbox.run({ ...plain(code, { env: { KEY: "k1" } }), runtime: "WFP" }, recordingBridge());
    expect(outcome.result).toEqual({ method: "POST", type: "application/json", text: "hi", secret: "k1", ctx: "inv_test", wait: "function" });
  });

  it("answer with the text when the Response body is not JSON", async () => {
    const outcome = await sandbox.run(
      { ...plain("export default { fetch() { return new Response('plain words', { status: 202 }); } };"), runtime: "WFP" },
      recordingBridge(),
    );
    expect(outcome.result).toBe("plain words");
  });

  it("wait for ctx.waitUntil work before the run ends", async () => {
    const code = `export default { async fetch(request, env, ctx) {
      ctx.waitUntil(new Promise((resolve) => setTimeout(() => { console.log("after the response"); resolve(); }, 20)));
      return new Response("done");
    } };`;
    const outcome = await sandbox.run({ ...plain(code), runtime: "WFP" }, recordingBridge());
    expect(outcome.result).toBe("done");
    expect(outcome.logs.map((line) => line.message)).toEqual(["after the response"]);
  });

  it("fail cleanly when the handler returns something other than a Response", async () => {
    const outcome = await sandbox.run({ ...plain("export default { fetch() { return { not: 'a response' }; } };"), runtime: "WFP" }, recordingBridge());
    expect(outcome.error).toMatch(/^uncaught_exception: TypeError: The fetch handler must return a Response/);
  });
});

describe("env.KV", () => {
  it("reaches the bridge for get, put, delete and list", async () => {
    const bridge = recordingBridge();
    bridge.store.set("seen", "1");
    const code = `export default async function () {
      const before = await env.KV.get("seen");
      await env.KV.put("counter", JSON.stringify({ n: 2 }));
      const parsed = await env.KV.get("counter", { type: "json" });
      await env.KV.delete("seen");
      const listed = await env.KV.list({ prefix: "c" });
      return { before, parsed, names: listed.keys.map((key) => key.name), missing: await env.KV.get("seen") };
    }`;
    const outcome = await sandbox.run(plain(code), bridge);
    expect(outcome.result).toEqual({ before: "1", parsed: { n: 2 }, names: ["counter"], missing: null });
    expect(bridge.kvCalls).toEqual(["get seen", "put counter", "get counter", "delete seen", "list c", "get seen"]);
    expect(bridge.store.get("counter")).toBe('{"n":2}');
  });

  it("refuses keys over 512 bytes and values over 64 KiB before the bridge", async () => {
    const bridge = recordingBridge();
    const code = `export default async function () {
      const errors = [];
      for (const call of [() => env.KV.put("k".repeat(513), "v"), () => env.KV.put("k", "v".repeat(65537)), () => env.KV.put("k", 5)]) {
        try { await call(); } catch (error) { errors.push(error.message); }
      }
      return errors;
    }`;
    const outcome = await sandbox.run(plain(code), bridge);
    expect(outcome.result).toEqual([
      "env.KV.put: keys are at most 512 bytes",
      "env.KV.put: values are at most 65536 bytes",
      "env.KV.put: the value must be a string (use JSON.stringify)",
    ]);
    expect(bridge.kvCalls).toEqual([]);
  });
});

describe("fetch", () => {
  it("sends the request through the bridge and gives the code the response", async () => {
    const bridge = httpBridge();
    const code = `export default async function () {
      const response = await fetch("${echo.url}/orders?id=7", { method: "POST", headers: { "x-token": env.TOKEN }, body: JSON.stringify({ qty: 2 }) });
      return { status: response.status, ok: response.ok, echo: response.headers.get("x-echo"), has: response.headers.has("X-ECHO"), body: await response.json() };
    }`;
    const outcome = await sandbox.run(plain(code, { env: { TOKEN: "t-1" } }), bridge);
    expect(outcome.result).toEqual({
      status: 201,
      ok: true,
      echo: "yes",
      has: true,
      body: { method: "POST", path: "/orders?id=7", token: "t-1", body: '{"qty":2}' },
    });
    expect(outcome.sub_requests).toBe(1);
    expect(bridge.fetches[0]?.headers).toContainEqual(["content-type", "text/plain;charset=UTF-8"]);
  });

  it("rejects with the bridge's message when the bridge refuses", async () => {
    const bridge = recordingBridge(() => {
      throw new Error("fetch to http://169.254.169.254/ refused: private address");
    });
    const code = "export default async function () { try { await fetch('http://169.254.169.254/'); } catch (error) { return [error.name, error.message]; } }";
    const outcome = await sandbox.run(plain(code), bridge);
    expect(outcome.result).toEqual(["TypeError", "fetch to http://169.254.169.254/ refused: private address"]);
    expect(outcome.sub_requests).toBe(1);
  });

  it("counts sub-requests and reads bodies as text and bytes", async () => {
    const bridge = httpBridge();
    const code = `export default async function () {
      const first = await (await fetch("${echo.url}/a")).text();
      const bytes = new Uint8Array(await (await fetch("${echo.url}/b")).arrayBuffer());
      return [JSON.parse(first).path, bytes.length > 10];
    }`;
    const outcome = await sandbox.run(plain(code), bridge);
    expect(outcome.result).toEqual(["/a", true]);
    expect(outcome.sub_requests).toBe(2);
  });
});

describe("Web globals", () => {
  it("provide URL, URLSearchParams, TextEncoder/Decoder, atob/btoa and crypto", async () => {
    const code = `export default async function () {
      const url = new URL("/path/to?x=1#frag", "https://example.com");
      url.searchParams.append("name", "a b");
      const params = new URLSearchParams({ q: "é", n: "1" });
      const bytes = new TextEncoder().encode("héllo");
      const random = crypto.getRandomValues(new Uint8Array(16));
      return {
        href: url.href, host: url.host, search: url.search,
        params: params.toString(), got: params.get("q"),
        bytes: bytes.length, text: new TextDecoder().decode(bytes),
        base64: btoa("svc"), back: atob("c3Zj"),
        uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID()),
        randomLength: random.length, canParse: URL.canParse("not a url"),
      };
    }`;
    const outcome = await sandbox.run(plain(code), recordingBridge());
    expect(outcome.result).toEqual({
      href: "https://example.com/path/to?x=1&name=a+b#frag",
      host: "example.com",
      search: "?x=1&name=a+b",
      params: "q=%C3%A9&n=1",
      got: "é",
      bytes: 6,
      text: "héllo",
      base64: "c3Zj",
      back: "svc",
      uuid: true,
      randomLength: 16,
      canParse: false,
    });
  });

  it("throws the Web platform's errors for bad input", async () => {
    const code = `export default async function () {
      const errors = [];
      for (const bad of [() => new URL("nope"), () => atob("@@@"), () => btoa("☃")]) {
        try { bad(); } catch (error) { errors.push(error.name); }
      }
      return errors;
    }`;
    const outcome = await sandbox.run(plain(code), recordingBridge());
    expect(outcome.result).toEqual(["TypeError", "InvalidCharacterError", "InvalidCharacterError"]);
  });

  it("captures console output by level, objects as JSON", async () => {
    const code = `export default async function () {
      console.log("plain", 1, { a: [1, 2] });
      console.info("info");
      console.warn("warn");
      console.error(new Error("boom"));
      console.debug(null, undefined);
    }`;
    const outcome = await sandbox.run(plain(code), recordingBridge());
    expect(outcome.logs.map(({ level, message }) => [level, message])).toEqual([
      ["log", 'plain 1 {"a":[1,2]}'],
      ["info", "info"],
      ["warn", "warn"],
      ["error", "Error: boom"],
      ["debug", "null undefined"],
    ]);
  });

  it("runs setTimeout callbacks in order and honours clearTimeout", async () => {
    const code = `export default async function () {
      const order = [];
      const cancelled = setTimeout(() => order.push("cancelled"), 5);
      clearTimeout(cancelled);
      await new Promise((resolve) => { setTimeout(() => order.push("second"), 30); setTimeout(() => { order.push("first"); }, 10); setTimeout(resolve, 50); });
      return order;
    }`;
    const outcome = await sandbox.run(plain(code), recordingBridge());
    expect(outcome.result).toEqual(["first", "second"]);
  });
});

describe("the outcome", () => {
  it("counts CPU time of the code but not the time it awaits", async () => {
    const busy = await sandbox.run(
      plain("export default async function () { let x = 0; for (let i = 0; i < 1e6; i++) x += i; return x > 0; }"),
      recordingBridge(),
    );
    expect(busy.result).toBe(true);
    expect(busy.cpu_ms).toBeGreaterThan(1);
    const waiting = await sandbox.run(
      plain("export default async function () { await new Promise((r) => setTimeout(r, 300)); return 'waited'; }"),
      recordingBridge(),
    );
    expect(waiting.result).toBe("waited");
    // Node's timers count whole milliseconds, so a 300 ms timer in the worker can land up to 1 ms early on the host's clock.
    expect(waiting.duration_ms).toBeGreaterThanOrEqual(299);
    expect(waiting.cpu_ms).toBeLessThan(waiting.duration_ms / 2);
  });
});
