import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { functionSecrets } from "@/lib/db/schema";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { deployed, startLocalServer, type LocalServer } from "./support";

let app: TestApp;
let seeded: Seeded;
let local: LocalServer;

beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed();
  local = await startLocalServer();
});
afterAll(async () => {
  await local.close();
  await app.close();
});

const ECHO = "export default async function (event) { return event; }";

describe("POST /functions/{id}/test", () => {
  it("runs the active version with the message event its trigger_type describes", async () => {
    const fn = await deployed(app, seeded.key, "test-echo", ECHO, "ANY_MESSAGE");
    const res = await app.call("POST", `/functions/${fn.id}/test`, {
      key: seeded.key,
      body: { text: "hello there", contact: { id: "ct_1", phone: "+15550001111", name: "Ana" } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: "function_test", function_id: fn.id, status: "ok", error: null, version_id: fn.versionId, sub_requests: 0 });
    expect(res.body.result).toEqual({
      type: "message",
      trigger: "ANY_MESSAGE",
      text: "hello there",
      contact: { id: "ct_1", phone: "+15550001111", name: "Ana" },
      conversation_id: null,
      channel_id: null,
      variables: {},
    });
    expect(res.body.invocation_id).toMatch(/^fninv_/);
    expect(typeof res.body.cpu_ms).toBe("number");
    expect(typeof res.body.duration_ms).toBe("number");
  });

  it("refuses text over 4,000 characters", async () => {
    const fn = await deployed(app, seeded.key, "test-long", ECHO);
    const res = await app.call("POST", `/functions/${fn.id}/test`, { key: seeded.key, body: { text: "x".repeat(4001) } });
    expect(res.status).toBe(400);
    expect(res.body.issues).toHaveProperty("text");
  });
});

describe("POST /functions/{id}/invoke", () => {
  it("runs with {type: invoke, arguments, contact}; contact_phone needs no contact row", async () => {
    const fn = await deployed(app, seeded.key, "invoke-echo", ECHO);
    const res = await app.call("POST", `/functions/${fn.id}/invoke`, {
      key: seeded.key,
      body: { arguments: { city: "Lisbon" }, contact_phone: "351910000000" },
    });
    expect(res.body).toMatchObject({ object: "function_invoke", status: "ok" });
    expect(res.body.result).toEqual({ type: "invoke", arguments: { city: "Lisbon" }, contact: { id: null, phone: "+351910000000", name: null } });
  });

  it("404s a contact_id that is not the project's", async () => {
    const fn = await deployed(app, seeded.key, "invoke-contact", ECHO);
    const res = await app.call("POST", `/functions/${fn.id}/invoke`, { key: seeded.key, body: { contact_id: "ct_nobody" } });
    expect(res.status).toBe(404);
  });

  it("checks arguments against input_schema with issues per field", async () => {
    const fn = await deployed(app, seeded.key, "invoke-schema", ECHO);
    await app.call("PATCH", `/functions/${fn.id}`, {
      key: seeded.key,
      body: { input_schema: { type: "object", properties: { city: { type: "string" }, days: { type: "integer", minimum: 1 } }, required: ["city"] } },
    });
    const bad = await app.call("POST", `/functions/${fn.id}/invoke`, { key: seeded.key, body: { arguments: { days: 0 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("invalid_request");
    expect(bad.body.issues).toHaveProperty(["arguments.city"]);
    expect(bad.body.issues).toHaveProperty(["arguments.days"]);
    const good = await app.call("POST", `/functions/${fn.id}/invoke`, { key: seeded.key, body: { arguments: { city: "Porto", days: 2 } } });
    expect(good.status).toBe(200);
  });

  it("422 function_not_deployed before the first deploy, 422 function_inactive when switched off", async () => {
    const created = await app.call("POST", "/functions", { key: seeded.key, body: { slug: "undeployed", name: "U", trigger_type: "KEYWORD" } });
    const notDeployed = await app.call("POST", `/functions/${created.body.id}/invoke`, { key: seeded.key, body: {} });
    expect(notDeployed.status).toBe(422);
    expect(notDeployed.body.error).toBe("function_not_deployed");
    const fn = await deployed(app, seeded.key, "switched-off", ECHO);
    await app.call("PATCH", `/functions/${fn.id}`, { key: seeded.key, body: { is_active: false } });
    for (const op of ["invoke", "test"]) {
      const res = await app.call("POST", `/functions/${fn.id}/${op}`, { key: seeded.key, body: {} });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe("function_inactive");
    }
  });

  it("answers 200 with status error and the code when the function throws", async () => {
    const fn = await deployed(app, seeded.key, "thrower", "export default async () => { throw new TypeError('nope'); }");
    const res = await app.call("POST", `/functions/${fn.id}/invoke`, { key: seeded.key, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "error", result: null });
    expect(res.body.error).toMatch(/^uncaught_exception: .*nope/);
  });
});

describe("secrets", () => {
  it("are write-only, sealed, visible as env only to their own function, and never logged as input", async () => {
    const reader = "export default async (event, ctx) => ({ token: env.API_TOKEN ?? null, names: Object.keys(env).filter((k) => k !== 'KV').sort() });";
    const wfpReader = "export default { async fetch(request, env) { return Response.json({ token: env.API_TOKEN ?? null }); } };";
    const mine = await deployed(app, seeded.key, "secret-owner", reader);
    const other = await deployed(app, seeded.key, "secret-other", wfpReader);
    const put = await app.call("PUT", `/functions/${mine.id}/secrets`, { key: seeded.key, body: { API_TOKEN: "s3cr3t-value", OLD: "x" } });
    expect(put.status).toBe(200);
    expect(put.body.data.map((s: { name: string }) => s.name)).toEqual(["API_TOKEN", "OLD"]);
    expect(JSON.stringify(put.body)).not.toContain("s3cr3t-value");
    const removed = await app.call("PUT", `/functions/${mine.id}/secrets`, { key: seeded.key, body: { OLD: null } });
    expect(removed.body.data.map((s: { name: string }) => s.name)).toEqual(["API_TOKEN"]);

    const run = await app.call("POST", `/functions/${mine.id}/invoke`, { key: seeded.key, body: {} });
    expect(run.body.result).toEqual({ token: "s3cr3t-value", names: ["API_TOKEN"] });
    const otherRun = await app.call("POST", `/functions/${other.id}/invoke`, { key: seeded.key, body: {} });
    expect(otherRun.body.result).toEqual({ token: null });

    const log = await app.call("GET", `/functions/${mine.id}/invocations`, { key: seeded.key });
    expect(JSON.stringify(log.body.data[0].input)).not.toContain("s3cr3t-value");
    const stored = await app.db.select().from(functionSecrets);
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain("s3cr3t-value");
  });

  it("refuses bad names and more than 50 secrets", async () => {
    const fn = await deployed(app, seeded.key, "secret-limits", ECHO);
    const bad = await app.call("PUT", `/functions/${fn.id}/secrets`, { key: seeded.key, body: { lower: "x" } });
    expect(bad.status).toBe(400);
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`S_${i}`, "v"]));
    const tooMany = await app.call("PUT", `/functions/${fn.id}/secrets`, { key: seeded.key, body: many });
    expect(tooMany.status).toBe(400);
    const names = await app.call("GET", `/functions/${fn.id}/secrets`, { key: seeded.key });
    expect(names.body.data).toEqual([]);
  });
});

describe("env.KV", () => {
  it("persists between runs, lists by prefix, and belongs to one function", async () => {
    const counter = `export default async () => {
      const n = Number((await env.KV.get("count")) ?? "0") + 1;
      await env.KV.put("count", String(n));
      await env.KV.put("user:" + n, "u" + n);
      const listed = await env.KV.list({ prefix: "user:" });
      return { n, users: listed.keys.map((k) => k.name) };
    };`;
    const fn = await deployed(app, seeded.key, "kv-counter", counter);
    await app.call("POST", `/functions/${fn.id}/invoke`, { key: seeded.key, body: {} });
    const second = await app.call("POST", `/functions/${fn.id}/invoke`, { key: seeded.key, body: {} });
    expect(second.body.result).toEqual({ n: 2, users: ["user:1", "user:2"] });
    const peek = await deployed(app, seeded.key, "kv-peek", "export default async () => env.KV.get('count');");
    const other = await app.call("POST", `/functions/${peek.id}/invoke`, { key: seeded.key, body: {} });
    expect(other.body.result).toBeNull();
  });

  it("refuses a value over 64 KiB inside the function", async () => {
    const fn = await deployed(
      app,
      seeded.key,
      "kv-big",
      "export default async () => { try { await env.KV.put('k', 'x'.repeat(65537)); return 'stored'; } catch (e) { return String(e.message); } };",
    );
    const res = await app.call("POST", `/functions/${fn.id}/invoke`, { key: seeded.key, body: {} });
    expect(res.body.result).toMatch(/at most 65536 bytes/);
  });
});

describe("fetch", () => {
  it("reaches a URL through the guard, counts the sub-request and shows the answer to the code", async () => {
    const source = `export default async (event) => {
      const res = await fetch(event.arguments.url + "/hook?x=1", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ hi: 1 }) });
      console.log("status", res.status);
      return { status: res.status, body: await res.json(), served: res.headers.get("x-served-by") };
    };`;
    const fn = await deployed(app, seeded.key, "fetcher", source);
    const res = await app.call("POST", `/functions/${fn.id}/invoke`, { key: seeded.key, body: { arguments: { url: local.url } } });
    expect(res.body).toMatchObject({ status: "ok", sub_requests: 1 });
    expect(res.body.result).toEqual({ status: 200, body: { ok: true, method: "POST", path: "/hook?x=1", received: '{"hi":1}' }, served: "local" });
    expect(res.body.logs.map((l: { message: string }) => l.message)).toEqual(["status 200"]);
    expect(local.hits.at(-1)).toMatchObject({ method: "POST", path: "/hook?x=1" });
  });
});

describe("GET /functions/{id}/invocations", () => {
  it("keeps a row per run with status, measurements, logs and input, filterable", async () => {
    const fn = await deployed(
      app,
      seeded.key,
      "logged",
      "export default async (event) => { console.warn('run', event.type); if (event.arguments?.fail) throw new Error('asked to'); return 1; };",
    );
    await app.call("POST", `/functions/${fn.id}/test`, { key: seeded.key, body: { text: "t" } });
    await app.call("POST", `/functions/${fn.id}/invoke`, { key: seeded.key, body: { arguments: { fail: true } } });
    const all = await app.call("GET", `/functions/${fn.id}/invocations`, { key: seeded.key });
    expect(all.body.data).toHaveLength(2);
    const [failed, tested] = all.body.data;
    expect(failed).toMatchObject({
      object: "function_invocation",
      event_type: "invoke",
      status: "error",
      version_id: fn.versionId,
      input: { type: "invoke", arguments: { fail: true } },
    });
    expect(failed.error).toMatch(/^uncaught_exception: .*asked to/);
    expect(tested).toMatchObject({ event_type: "test", status: "ok", result: 1, error: null, sub_requests: 0 });
    expect(tested.logs).toEqual([expect.objectContaining({ level: "warn", message: "run message" })]);
    expect(typeof tested.cpu_ms).toBe("number");
    expect(typeof tested.duration_ms).toBe("number");
    const errors = await app.call("GET", `/functions/${fn.id}/invocations?status=error`, { key: seeded.key });
    expect(errors.body.data.map((i: { id: string }) => i.id)).toEqual([failed.id]);
    const tests = await app.call("GET", `/functions/${fn.id}/invocations?event_type=test`, { key: seeded.key });
    expect(tests.body.data.map((i: { id: string }) => i.id)).toEqual([tested.id]);
  });
});
