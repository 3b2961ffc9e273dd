import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { deployed, startLocalServer, type LocalServer } from "./support";

/**
 * The abuse list through the public API, with private networks disallowed (production's
 * setting): every case ends as a clean error code in the answer and the invocation log, and the API
 * keeps answering while user code spins (the code runs on the sandbox's worker threads).
 */
let app: TestApp;
let seeded: Seeded;
let local: LocalServer;

beforeAll(async () => {
  app = await createTestApp({ settings: { allowPrivateNetwork: false } });
  seeded = await app.seed();
  local = await startLocalServer();
});
afterAll(async () => {
  await local.close();
  await app.close();
});

async function run(slug: string, source: string) {
  const fn = await deployed(app, seeded.key, slug, source);
  const res = await app.call("POST", `/functions/${fn.id}/invoke`, { key: seeded.key, body: {} });
  expect(res.status).toBe(200);
  const log = await app.call("GET", `/functions/${fn.id}/invocations`, { key: seeded.key });
  expect(log.body.data[0]).toMatchObject({ id: res.body.invocation_id, status: res.body.status, error: res.body.error });
  return res.body as { status: string; error: string | null; result: unknown; logs: unknown[]; sub_requests: number };
}

const CASES: [string, string, RegExp][] = [
  ["spin", "export default async () => { while (1) {} };", /^cpu_limit_exceeded/],
  ["spin-then", "export default async () => Promise.resolve().then(() => { while (1) {} });", /^(cpu_limit_exceeded|wall_time_exceeded)/],
  ["array-join", "export default async () => new Array(1e9).join('x').length;", /^(memory_limit_exceeded|cpu_limit_exceeded)/],
  ["big-string", "export default async () => 'x'.repeat(5e8).length;", /^memory_limit_exceeded/],
  ["recursion", "function f(n) { return f(n + 1) + 1; }\nexport default async () => f(0);", /^uncaught_exception: .*(stack|recursion)/i],
  ["constructor-escape", "export default async function () { return this.constructor.constructor('return process')().env; }", /^uncaught_exception: /],
  // A literal require('fs') or import('fs') is already refused at deploy (deploy.test.ts); these reach the run.
  ["require", "export default async () => (0, eval)('require')('fs').readFileSync('/etc/passwd', 'utf8');", /^uncaught_exception: .*require/],
  ["dynamic-import", "export default async (event) => (await import(event.arguments.module ?? 'fs')).readFileSync('/etc/passwd');", /^uncaught_exception: /],
  ["result-2mb", "export default async () => 'x'.repeat(2 * 1024 * 1024);", /^result_too_large/],
];

describe("abuse ends with a clean error code", () => {
  it.each(CASES)("%s", async (slug, source, expected) => {
    const body = await run(slug, source);
    expect(body.status).toBe("error");
    expect(body.error).toMatch(expected);
  });

  it("a log flood keeps 200 lines and reports log_limit_exceeded", async () => {
    const body = await run("log-flood", "export default async () => { for (let i = 0; i < 10000; i++) console.log('line', i); return 'done'; };");
    expect(body.logs).toHaveLength(200);
    expect(body.error).toMatch(/^log_limit_exceeded/);
    expect(body.result).toBe("done");
  });

  it("the 51st fetch ends the run with sub_request_limit_exceeded", async () => {
    // Private networks are refused here, so the target is refused too: each refused fetch still counts.
    const body = await run(
      "fetch-51",
      `export default async () => { for (let i = 0; i < 51; i++) { try { await fetch("${local.url}/n" + i); } catch {} } return "all"; };`,
    );
    expect(body.error).toMatch(/^sub_request_limit_exceeded/);
    expect(body.sub_requests).toBe(50);
  });

  it.each([
    ["loopback", "http://127.0.0.1:9/"],
    ["metadata", "http://169.254.169.254/latest/meta-data/"],
    ["private-name", "http://localhost:9/"],
  ])("fetch to %s is refused by the SSRF guard", async (slug, url) => {
    const body = await run(
      `ssrf-${slug}`,
      `export default async () => { try { await fetch("${url}"); return "reached"; } catch (e) { return String(e.message); } };`,
    );
    expect(body.status).toBe("ok");
    expect(body.result).toMatch(/refused/);
    expect(local.hits).toHaveLength(0);
  });
});

describe("the API keeps answering while user code spins", () => {
  it("every GET /limits of a burst answers before a CPU-bound invoke ends", async () => {
    const fn = await deployed(app, seeded.key, "busy", "export default async () => { const end = Date.now() + 60000; while (Date.now() < end) {} };");
    let busyDone = false;
    const busy = app.call("POST", `/functions/${fn.id}/invoke`, { key: seeded.key, body: {} }).then((res) => {
      busyDone = true;
      return res;
    });
    const answeredWhileBusy: boolean[] = [];
    for (let i = 0; i < 20; i++) {
      const limits = await app.call("GET", "/limits", { key: seeded.key });
      expect(limits.status).toBe(200);
      answeredWhileBusy.push(!busyDone);
    }
    const res = await busy;
    expect(res.body.error).toMatch(/^cpu_limit_exceeded/);
    expect(answeredWhileBusy.every(Boolean)).toBe(true);
  });
});
