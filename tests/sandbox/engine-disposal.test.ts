import { afterAll, describe, expect, it } from "vitest";
import { createSandbox } from "@/lib/ports/sandbox";
import { plain, recordingBridge } from "./support";

/**
 * Issue 31 item 6: hostile results must never leave the engine unable to free a run's runtime. A
 * run whose WebAssembly memory had to grow inside a promise job used to abort QuickJS on disposal
 * (quickjs-emscripten read the job's context through a view the growth had detached), and the pool
 * replaced the worker. Here the worker that ran it takes the next run itself: a pool never starts
 * more workers than it has places.
 */
const single = createSandbox({ poolSize: 1 });
const POOL = 4;
const pool = createSandbox({ poolSize: POOL });
afterAll(() => Promise.all([single.close(), pool.close()]));

const HUGE_STRINGIFY = "export default async function () { JSON.stringify = () => 'x'.repeat(1e6).repeat(50); return { a: 1 }; }";
/** What is tested is the result's path, not the CPU limit: other suites share these two cores. */
const ROOMY = { limits: { cpuMs: 10_000, wallMs: 20_000 } };
const TRIVIAL = "export default async function (event) { return event.text; }";

describe("a result far over the limit", () => {
  it("ends result_too_large and the same worker runs the next function", async () => {
    const hostile = await single.run(plain(HUGE_STRINGIFY, ROOMY), recordingBridge());
    expect(hostile.status).toBe("error");
    expect(hostile.error).toMatch(/^result_too_large: /);
    expect(hostile.result).toBeNull();

    const next = await single.run(plain(TRIVIAL, { event: { text: "after" } }), recordingBridge());
    expect(next).toMatchObject({ status: "ok", result: "after" });
    expect(single.stats().workersStarted).toBe(1);
  });

  it("ends a large string built inside a promise job the same way, and a large array is fine", async () => {
    const text = await single.run(plain("export default async function () { await null; return 'y'.repeat(1e7); }", ROOMY), recordingBridge());
    const array = await single.run(
      plain("export default async function () { await null; const a = []; for (let i = 0; i < 200000; i++) a.push({ i }); return a.length; }", ROOMY),
      recordingBridge(),
    );
    expect(text.error).toMatch(/^result_too_large: /);
    expect(array).toMatchObject({ status: "ok", result: 200000 });
    expect((await single.run(plain(TRIVIAL), recordingBridge())).result).toBe("hi");
    expect(single.stats().workersStarted).toBe(1);
  });

  it("run three at once, they do not stop another function's run from completing normally", async () => {
    const hostile = [1, 2, 3].map(() => pool.run(plain(HUGE_STRINGIFY, ROOMY), recordingBridge()));
    const other = pool.run(plain(TRIVIAL, { event: { text: "other tenant" } }), recordingBridge());
    const outcomes = await Promise.all(hostile);
    expect(outcomes.map((outcome) => outcome.error?.split(":")[0])).toEqual(["result_too_large", "result_too_large", "result_too_large"]);
    expect(await other).toMatchObject({ status: "ok", result: "other tenant", error: null });
    // Every place is free again (a replaced worker would have started on the way): none was replaced.
    await Promise.all([1, 2, 3, 4].map(() => pool.run(plain(TRIVIAL), recordingBridge())));
    expect(pool.stats().workersStarted).toBeLessThanOrEqual(POOL);
  });
});
