import { afterAll, describe, expect, it } from "vitest";
import { createSandbox } from "@/lib/ports/sandbox";
import { DEFAULT_SANDBOX_LIMITS } from "@/lib/ports/sandbox/types";
import { plain, recordingBridge } from "./support";

/**
 * Issue 31 item 10: the CPU limit (1,000 ms) holds within 10 % whatever the code's shape. Some shapes
 * never reach QuickJS's interrupt check in time: a recursion that catches its own stack overflow
 * spends its time building each overflow's stack trace (thousands of frames) between checks, and
 * JSON.stringify of a 100k-deep object loops inside the built-in. cpu_ms is the time the worker
 * measured executing the function, not the test's wall clock.
 */
const sandbox = createSandbox({ poolSize: 1 });
afterAll(() => sandbox.close());

const LIMIT = DEFAULT_SANDBOX_LIMITS.cpuMs;
const WITHIN = LIMIT * 1.1;

const SHAPES: [string, string][] = [
  [
    "a recursion that catches its stack overflow and goes on",
    "function down(n) { try { return down(n + 1); } catch (e) { return down(n + 1); } }\nexport default async function () { return down(0); }",
  ],
  [
    "a recursion that catches twice per call",
    "function f() { try { f(); } catch (e) {} try { f(); } catch (e) {} }\nexport default async function () { f(); return 1; }",
  ],
  ["a 100k-deep object returned as the result", "export default async function () { let o = null; for (let i = 0; i < 100000; i++) o = { o }; return o; }"],
  [
    "a 100k-deep object serialised by the code",
    "export default async function () { let o = null; for (let i = 0; i < 100000; i++) o = { o }; return JSON.stringify(o).length; }",
  ],
];

describe("the CPU limit", () => {
  it.each(SHAPES)("ends %s within a tenth of the limit", async (_shape, code) => {
    const outcome = await sandbox.run(plain(code), recordingBridge());
    expect(outcome.status).toBe("error");
    expect(outcome.error).toMatch(/^cpu_limit_exceeded: /);
    expect(outcome.cpu_ms).toBeGreaterThanOrEqual(LIMIT);
    expect(outcome.cpu_ms).toBeLessThanOrEqual(WITHIN);
  });

  it("ends a plain loop inside the worker, which stays in service", async () => {
    await sandbox.run(plain("export default async function () { return 1; }"), recordingBridge());
    const started = sandbox.stats().workersStarted;
    const outcome = await sandbox.run(plain("export default async function () { let i = 0; for (;;) i++; }"), recordingBridge());
    expect(outcome.error).toMatch(/^cpu_limit_exceeded: /);
    expect(outcome.cpu_ms).toBeLessThanOrEqual(WITHIN);
    expect((await sandbox.run(plain("export default async function () { return 'next'; }"), recordingBridge())).result).toBe("next");
    expect(sandbox.stats().workersStarted).toBe(started);
  });
});
