import { afterAll, describe, expect, it } from "vitest";
import { createSandbox } from "@/lib/ports/sandbox";
import { plain, recordingBridge } from "./support";

/**
 * Strings cross from QuickJS to the host exactly (issue 31 item 1: "a NUL in a log line no longer cuts
 * the line"): quickjs-emscripten copies a string out as a C string, which ends at the first NUL and
 * turns each half of a lone surrogate into three U+FFFD. What the host stores is then the caller's
 * decision (lib/domain/functions), made on the text the function really produced.
 */
const sandbox = createSandbox({ poolSize: 1 });
afterAll(() => sandbox.close());

const run = (code: string) => sandbox.run(plain(code), recordingBridge());

describe("strings leaving the sandbox", () => {
  it("keep a NUL inside a log line", async () => {
    const outcome = await run("export default async function () { console.log('before\\u0000after'); console.warn('x\\0'); return 1; }");
    expect(outcome.logs.map((line) => line.message)).toEqual(["before\u0000after", "x\u0000"]);
    expect(outcome.status).toBe("ok");
  });

  it("keep a lone surrogate in a log line as it is", async () => {
    const outcome = await run("export default async function () { console.log('a\\ud800b'); return 1; }");
    expect(outcome.logs[0]?.message).toBe("a\ud800b");
  });

  it("keep NULs and lone surrogates of a result's keys and values", async () => {
    const outcome = await run("export default async function () { return { 'k\\0': 'v\\0w', s: '\\udc00' }; }");
    expect(outcome.result).toEqual({ "k\u0000": "v\u0000w", s: "\udc00" });
  });

  it("keep a NUL in an error message", async () => {
    const outcome = await run("export default async function () { throw new Error('bad\\0input'); }");
    expect(outcome.error?.startsWith("uncaught_exception: Error: bad\u0000input (at 1:")).toBe(true);
  });

  it("reach the Web APIs whole", async () => {
    const outcome = await run("export default async function () { return [...new TextEncoder().encode('a\\0b')]; }");
    expect(outcome.result).toEqual([97, 0, 98]);
  });
});

describe("a result that JSON.stringify, replaced by the code, made", () => {
  it("is refused with invalid_result when it is not JSON", async () => {
    const outcome = await run("export default async function () { JSON.stringify = () => 'not json'; return { a: 1 }; }");
    expect(outcome.status).toBe("error");
    expect(outcome.error).toMatch(/^invalid_result: /);
    expect(outcome.result).toBeNull();
  });

  it("is refused with invalid_result when it is not a string", async () => {
    const outcome = await run("export default async function () { JSON.stringify = () => 42; return { a: 1 }; }");
    expect(outcome.error).toMatch(/^invalid_result: /);
  });

  it("is the result when it is JSON, a NUL escape included", async () => {
    const outcome = await run('export default async function () { JSON.stringify = () => \'{"made":"by\\\\u0000hand"}\'; return 1; }');
    expect(outcome).toMatchObject({ status: "ok", result: { made: "by\u0000hand" } });
  });
});
