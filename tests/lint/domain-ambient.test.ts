import { describe, expect, it } from "vitest";
import { snippetLinter } from "./lint-snippet";

/**
 * The rule in eslint.config.mjs that keeps lib/domain off the process's environment and clock: settings
 * come in ctx.settings, time from ctx.now or ctx.ports.clock, so a test sets each and moves time.
 * Checked on snippets linted as if they sat at the given path; `npm run lint` applies it to the tree.
 */
const ambientErrors = snippetLinter(["no-restricted-properties", "no-restricted-syntax"]);

describe("lib/domain reads neither process.env nor the wall clock", () => {
  it.each([
    ["process.env", `export const url = process.env.SVC_PUBLIC_URL;`],
    ["process.env by index", `export const url = process.env["SVC_PUBLIC_URL"];`],
    ["process.env destructured", `const { env } = process; export const url = env.SVC_PUBLIC_URL;`],
    ["Date.now()", `export const started = Date.now();`],
    ["Date.now passed along", `export const clock = Date.now;`],
    ["new Date()", `export const at = new Date();`],
    ["new Date without parentheses", `export const at = new Date;`],
    ["Date() as a function", `export const at = Date();`],
    ["performance.now()", `export const started = performance.now();`],
  ])("%s is an error", async (_what, code) => {
    for (const filePath of ["lib/domain/messages/x.ts", "lib/domain/broadcasts/deep/x.ts"]) {
      const errors = await ambientErrors(filePath, code);
      expect(errors, filePath).toHaveLength(1);
      expect(errors[0]).toContain("ctx.ports.clock");
    }
  });

  it.each([
    ["a value parsed", `export const at = (iso: string) => new Date(iso);`],
    ["a timestamp moved", `export const later = (now: Date) => new Date(now.getTime() + 1000);`],
    ["a fixed moment", `export const epoch = new Date(Date.UTC(2026, 0, 1));`],
    ["the clock port", `export const at = (ctx: { ports: { clock: { now(): Date } } }) => ctx.ports.clock.now();`],
    ["the settings", `export const url = (ctx: { settings: { publicUrl: string } }) => ctx.settings.publicUrl;`],
  ])("%s is allowed", async (_what, code) => {
    expect(await ambientErrors("lib/domain/messages/x.ts", code)).toEqual([]);
  });

  it("is lib/domain's alone: the composition root and the ports read the environment and the clock", async () => {
    expect(await ambientErrors("lib/server/x.ts", `export const url = process.env.SVC_PUBLIC_URL;`)).toEqual([]);
    expect(await ambientErrors("lib/ports/clock/x.ts", `export const now = () => new Date(Date.now());`)).toEqual([]);
  });

  it("keeps the layer rule on lib/domain alongside it", async () => {
    const errors = await ambientErrors("lib/domain/messages/x.ts", `export const f = () => import("@/lib/api/route"); export const at = new Date();`);
    expect(errors).toHaveLength(2);
    expect(errors.some((message) => message.includes("must not import lib/api"))).toBe(true);
  });
});
