import { describe, expect, it } from "vitest";
import { snippetLinter } from "./lint-snippet";

/**
 * The size rule in eslint.config.mjs (CONTRIBUTING.md "The rules": files in lib/ under 400 lines,
 * functions under 80, blank lines and comments not counted), checked on generated snippets linted as if
 * they sat at the given path. `npm run lint` applies it to the real tree.
 */
const sizeErrors = snippetLinter(["max-lines", "max-lines-per-function"], (m) => `${m.ruleId}: ${m.message}`);

/** A function of exactly `lines` counted lines (header and closing brace included), with `padding` blank and comment lines inside. */
function functionOf(lines: number, padding = 0): string {
  const body = Array.from({ length: lines - 4 }, (_, i) => `  total += ${i};`);
  const pad = Array.from({ length: padding }, (_, i) => (i % 2 ? "" : `  // note ${i}`));
  return ["export function f(): number {", "  let total = 0;", ...pad, ...body, "  return total;", "}", ""].join("\n");
}

/** A module of exactly `lines` counted lines, plus `padding` blank and comment lines. */
function moduleOf(lines: number, padding = 0): string {
  const pad = Array.from({ length: padding }, (_, i) => (i % 2 ? "" : `// note ${i}`));
  return [...pad, ...Array.from({ length: lines }, (_, i) => `export const c${i} = ${i};`), ""].join("\n");
}

describe("size rule: functions in lib/ stay under 80 lines", () => {
  it.each(["lib/domain/messages/x.ts", "lib/ports/queue/x.ts", "lib/api/x.ts", "lib/dashboard/routes/x.ts"])(
    "%s: 81 lines is an error, 80 is not",
    async (filePath) => {
      const errors = await sizeErrors(filePath, functionOf(81));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^max-lines-per-function: .*'f' has too many lines \(81\)/);
      expect(await sizeErrors(filePath, functionOf(80))).toEqual([]);
    },
  );

  it("blank lines and comments do not count", async () => {
    expect(await sizeErrors("lib/domain/messages/x.ts", functionOf(80, 30))).toEqual([]);
  });

  it("a disable comment that says why lets a long function through", async () => {
    const code = `// eslint-disable-next-line max-lines-per-function -- one object of methods\n${functionOf(120)}`;
    expect(await sizeErrors("lib/ports/queue/x.ts", code)).toEqual([]);
  });

  it.each(["tests/x.test.ts", "components/x.tsx", "app/x.ts", "cli/x.ts"])("%s: outside lib/ the rule does not apply", async (filePath) => {
    expect(await sizeErrors(filePath, functionOf(120))).toEqual([]);
  });
});

describe("size rule: files in lib/ stay under 400 lines", () => {
  it("401 lines is an error, 400 is not, blank lines and comments do not count", async () => {
    const errors = await sizeErrors("lib/domain/messages/x.ts", moduleOf(401));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^max-lines: .*\(401\)/);
    expect(await sizeErrors("lib/domain/messages/x.ts", moduleOf(400, 50))).toEqual([]);
  });

  it("outside lib/ the rule does not apply", async () => {
    expect(await sizeErrors("tests/x.test.ts", moduleOf(500))).toEqual([]);
  });
});
