import { afterAll, describe, expect, it } from "vitest";
import { createSandbox } from "@/lib/ports/sandbox";
import { DEFAULT_SANDBOX_LIMITS } from "@/lib/ports/sandbox/types";
import { FAST_LIMITS, plain, recordingBridge } from "./support";

/**
 * Runaway and hostile functions (issue 16 "Escapes and abuse"): each one ends with a clean error
 * code in the outcome, never a hang or a crashed process. Real QuickJS on real worker threads; CPU and
 * wall limits lowered so the suite is quick, memory at the production cap.
 */
const sandbox = createSandbox({ poolSize: 2, limits: FAST_LIMITS });
afterAll(() => sandbox.close());

const run = (code: string) => sandbox.run(plain(code), recordingBridge());

describe("runaway code", () => {
  it("ends an endless loop with cpu_limit_exceeded", async () => {
    const outcome = await run("export default async function () { while (true) {} }");
    expect(outcome.status).toBe("error");
    expect(outcome.error).toMatch(/^cpu_limit_exceeded: /);
    expect(outcome.result).toBeNull();
    expect(outcome.cpu_ms).toBeGreaterThanOrEqual(FAST_LIMITS.cpuMs);
  });

  it("ends a busy loop inside a promise callback (a job, not the first slice)", async () => {
    const outcome = await run("export default async function () { await Promise.resolve().then(() => { for (;;) {} }); }");
    expect(outcome.error).toMatch(/^(cpu_limit_exceeded|wall_time_exceeded): /);
  });

  it("ends a loop inside a built-in that never returns to the interpreter", async () => {
    const outcome = await run("export default async function () { return new Array(1e9).join('x').length; }");
    expect(outcome.error).toMatch(/^(memory_limit_exceeded|cpu_limit_exceeded): /);
  });

  it("ends an awaited timer past the wall limit with wall_time_exceeded", async () => {
    const outcome = await run("export default async function () { await new Promise((resolve) => setTimeout(resolve, 60000)); return 'late'; }");
    expect(outcome.error).toMatch(/^wall_time_exceeded: /);
    expect(outcome.cpu_ms).toBeLessThan(FAST_LIMITS.cpuMs);
  });

  it("ends a promise that nothing can settle at once, as an uncaught exception", async () => {
    const outcome = await run("export default async function () { await new Promise(() => {}); return 'never'; }");
    expect(outcome.error).toMatch(/^uncaught_exception: .*never settle/);
  });

  it("turns deep recursion into a stack overflow error", async () => {
    const outcome = await run("function down(n) { return down(n + 1) + 1; }\nexport default async function () { return down(0); }");
    expect(outcome.error).toMatch(/^uncaught_exception: .*stack overflow/i);
    // The same pool still runs functions afterwards: the worker survived.
    expect((await run("export default async function () { return 'fine'; }")).result).toBe("fine");
  });
});

describe("memory", () => {
  it("keeps the production memory cap in this suite", () => {
    expect(DEFAULT_SANDBOX_LIMITS.memoryBytes).toBe(64 * 1024 * 1024);
  });

  it("refuses a 500 MB string with memory_limit_exceeded", async () => {
    const outcome = await run("export default async function () { return 'x'.repeat(5e8).length; }");
    expect(outcome.error).toMatch(/^memory_limit_exceeded: /);
  });

  it("reports memory running out under small objects as memory_limit_exceeded, not as a thrown null", async () => {
    // QuickJS throws null when it cannot even allocate its "out of memory" error.
    const roomy = { limits: { cpuMs: 10_000, wallMs: 20_000 } };
    const deep = await sandbox.run(plain("export default async function () { let o = null; for (;;) o = { o }; }", roomy), recordingBridge());
    expect(deep.error).toMatch(/^memory_limit_exceeded: /);
    const wide = await sandbox.run(plain("export default async function () { const a = []; for (;;) a.push([1, 2, 3]); }", roomy), recordingBridge());
    expect(wide.error).toMatch(/^memory_limit_exceeded: /);
    expect((await run("export default async function () { throw null; }")).error).toBe("uncaught_exception: null");
  });

  it("refuses typed arrays that together pass 64 MiB", async () => {
    const outcome = await run(
      "export default async function () { const a = new Uint8Array(40e6); const b = new Uint8Array(40e6); return a.length + b.length; }",
    );
    expect(outcome.error).toMatch(/^memory_limit_exceeded: /);
    expect((await run("export default async function () { return new Uint8Array(40e6).length; }")).result).toBe(40e6);
  });
});

describe("escapes", () => {
  it("gives no access to the host through the Function constructor", async () => {
    const outcome = await sandbox.run(
      { ...plain("export default { fetch() { return this.constructor.constructor('return process')(); } }"), runtime: "WFP" },
      recordingBridge(),
    );
    expect(outcome.error).toMatch(/^uncaught_exception: ReferenceError: .*process/);
  });

  it("has no require", async () => {
    const outcome = await run("export default async function () { return require('fs').readFileSync('/etc/passwd', 'utf8'); }");
    expect(outcome.error).toMatch(/^uncaught_exception: ReferenceError: .*require/);
  });

  it("refuses a dynamic import", async () => {
    const outcome = await run("export default async function () { const fs = await import('fs'); return typeof fs; }");
    expect(outcome.error).toMatch(/^uncaught_exception: .*import of "fs" refused/);
  });

  it("has no process, Deno-style or Node-style globals", async () => {
    const outcome = await run(
      "export default async function () { return [typeof process, typeof require, typeof module, typeof globalThis.Buffer, typeof std, typeof os]; }",
    );
    expect(outcome.result).toEqual(["undefined", "undefined", "undefined", "undefined", "undefined", "undefined"]);
  });
});

describe("limits on what a run produces", () => {
  it("stops the 51st fetch with sub_request_limit_exceeded, after 50 reached the bridge", async () => {
    const bridge = recordingBridge((request) => ({ status: 200, status_text: "OK", headers: [], body_base64: "", url: request.url }));
    const code = "export default async function () { for (let i = 0; i < 51; i++) await fetch('https://api.example/' + i); return 'all done'; }";
    const outcome = await sandbox.run(plain(code), bridge);
    expect(outcome.error).toMatch(/^sub_request_limit_exceeded: /);
    expect(outcome.result).toBeNull();
    expect(outcome.sub_requests).toBe(50);
    expect(bridge.fetches).toHaveLength(50);
  });

  it("ends the run at the 51st fetch even when the code catches the refusal", async () => {
    const bridge = recordingBridge((request) => ({ status: 200, status_text: "OK", headers: [], body_base64: "", url: request.url }));
    const code =
      "export default async function () { for (let i = 0; i < 60; i++) { try { await fetch('https://api.example/' + i); } catch {} } return 'swallowed'; }";
    const outcome = await sandbox.run(plain(code), bridge);
    expect(outcome.error).toMatch(/^sub_request_limit_exceeded: /);
    expect(bridge.fetches).toHaveLength(50);
  });

  it("refuses a 2 MB result with result_too_large", async () => {
    const outcome = await run("export default async function () { return 'x'.repeat(2 * 1024 * 1024); }");
    expect(outcome.error).toMatch(/^result_too_large: /);
    expect(outcome.result).toBeNull();
  });

  it("keeps 200 lines of a log flood, reports log_limit_exceeded and still returns the result", async () => {
    const code = "export default async function () { for (let i = 0; i < 1000; i++) console.log('line', i); return 'finished'; }";
    const outcome = await sandbox.run(plain(code, { limits: { cpuMs: 2_000 } }), recordingBridge());
    expect(outcome.status).toBe("error");
    expect(outcome.error).toMatch(/^log_limit_exceeded: /);
    expect(outcome.result).toBe("finished");
    expect(outcome.logs).toHaveLength(200);
    expect(outcome.logs[199]?.message).toBe("line 199");
  });

  it("caps logs at 64 KiB, cutting the line that crosses it", async () => {
    const outcome = await run("export default async function () { for (let i = 0; i < 10; i++) console.log('y'.repeat(10000)); return 1; }");
    expect(outcome.error).toMatch(/^log_limit_exceeded: /);
    const bytes = outcome.logs.reduce((sum, line) => sum + Buffer.byteLength(line.message), 0);
    expect(bytes).toBe(64 * 1024);
    expect(outcome.logs).toHaveLength(7);
  });

  it("reports the fatal error, not the log limit, when both happen", async () => {
    const outcome = await run("export default async function () { for (let i = 0; i < 300; i++) console.log(i); while (true) {} }");
    expect(outcome.error).toMatch(/^cpu_limit_exceeded: /);
    expect(outcome.logs).toHaveLength(200);
  });
});
