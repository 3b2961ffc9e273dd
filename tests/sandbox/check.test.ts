import { afterAll, describe, expect, it } from "vitest";
import { createSandbox } from "@/lib/ports/sandbox";
import { FAST_LIMITS } from "./support";

/**
 * check() at deploy (decisions.md "Hosted functions"): the module's top level is evaluated once under
 * the limits, the runtime is detected from its exports, and problems come back as 1-based line:column
 * diagnostics of the code given.
 */
const sandbox = createSandbox({ poolSize: 1, limits: FAST_LIMITS });
afterAll(() => sandbox.close());

describe("runtime detection", () => {
  it("detects PLAIN from a default export function", async () => {
    expect(await sandbox.check("export default async function (event, ctx) { return event; }")).toEqual({ ok: true, runtime: "PLAIN" });
  });

  it("detects PLAIN from a handler export", async () => {
    expect(await sandbox.check("export async function handler(event) { return 1; }")).toEqual({ ok: true, runtime: "PLAIN" });
  });

  it("detects WFP from a default export object with fetch", async () => {
    expect(await sandbox.check("export default { async fetch(request, env, ctx) { return new Response('ok'); } };")).toEqual({ ok: true, runtime: "WFP" });
  });

  it("waits for top-level await, timers included", async () => {
    const code = "await new Promise((resolve) => setTimeout(resolve, 10));\nexport const handler = async () => 1;";
    expect(await sandbox.check(code)).toEqual({ ok: true, runtime: "PLAIN" });
  });

  it("explains the accepted shapes when the exports fit none", async () => {
    const outcome = await sandbox.check("export default 42;\nexport const fetch = 1;");
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.diagnostics).toHaveLength(1);
    expect(outcome.diagnostics[0]).toMatchObject({ line: 1, column: 1 });
    expect(outcome.diagnostics[0]?.message).toContain("export default async function (event, ctx)");
    expect(outcome.diagnostics[0]?.message).toContain("export default { async fetch(request, env, ctx) }");
  });
});

describe("diagnostics", () => {
  it("places a syntax error at its line and column", async () => {
    const outcome = await sandbox.check("export default async function () {\n  const x = ;\n}");
    expect(outcome).toEqual({ ok: false, diagnostics: [{ line: 2, column: 13, message: expect.stringMatching(/^SyntaxError: /) }] });
  });

  it("places an exception thrown by the top level", async () => {
    const outcome = await sandbox.check("const config = null;\n\nconst region = config.region;\nexport default async function () { return region; }");
    expect(outcome).toEqual({ ok: false, diagnostics: [{ line: 3, column: 22, message: expect.stringMatching(/^TypeError: .*region/) }] });
  });

  it("refuses an import statement, at its line", async () => {
    const outcome = await sandbox.check("// helpers\nimport { readFileSync } from 'node:fs';\nexport default async function () { return readFileSync; }");
    expect(outcome).toEqual({
      ok: false,
      diagnostics: [{ line: 2, column: 1, message: 'import of "node:fs" is not allowed: hosted functions cannot import modules' }],
    });
  });

  it("ends a top level that never stops with the CPU limit", async () => {
    const outcome = await sandbox.check("while (true) {}\nexport default async function () {}");
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.diagnostics[0]?.message).toMatch(/^cpu_limit_exceeded: /);
  });

  it("gives the top level no fetch: the function may call it, deploy may not", async () => {
    const outcome = await sandbox.check("const seed = await fetch('https://api.example/seed');\nexport default async function () { return 1; }");
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.diagnostics[0]?.message).toMatch(/^TypeError: fetch is not available while the module's top level is checked/);
  });
});
