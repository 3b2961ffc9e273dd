import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The type-aware rules in eslint.config.mjs: a promise nobody awaits, or an async callback where a void
 * one is expected, loses its error. They need the TypeScript program, so they are on where a lost
 * promise does harm (the server code and its tools) and only for files on disk; `npm run lint` runs
 * them on the tree. This pins where they apply.
 */
const PROMISE_RULES = ["@typescript-eslint/no-floating-promises", "@typescript-eslint/no-misused-promises"];

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, "../..") });
});

async function promiseRules(filePath: string): Promise<{ rules: Record<string, unknown>; typed: boolean }> {
  const config = (await eslint.calculateConfigForFile(filePath)) as {
    rules?: Record<string, [number, ...unknown[]] | number>;
    languageOptions?: { parserOptions?: { projectService?: unknown } };
  };
  const rules = Object.fromEntries(PROMISE_RULES.map((rule) => [rule, [config.rules?.[rule]].flat()[0] ?? "absent"]));
  return { rules, typed: config.languageOptions?.parserOptions?.projectService === true };
}

describe("promises are awaited or handed off on purpose", () => {
  it.each(["lib/server/node-http.ts", "lib/domain/messages/send.ts", "lib/ports/queue/pump.ts", "cli/worker.ts", "scripts/openapi-lint.ts"])(
    "%s is type-checked for floating and misused promises",
    async (file) => {
      const { rules, typed } = await promiseRules(file);
      expect(rules).toEqual(Object.fromEntries(PROMISE_RULES.map((rule) => [rule, 2])));
      expect(typed).toBe(true);
    },
  );

  it.each(["components/ui/cn.ts", "app/layout.tsx", "tests/lint/promises.test.ts", "lib/domain/not-a-file.ts"])(
    "%s is left to the untyped rules",
    async (file) => {
      const { rules, typed } = await promiseRules(file);
      expect(rules).toEqual(Object.fromEntries(PROMISE_RULES.map((rule) => [rule, "absent"])));
      expect(typed).toBe(false);
    },
  );
});
