import path from "node:path";
import { ESLint } from "eslint";
import { expect } from "vitest";

/**
 * The lint tests' one tool: a snippet linted with the repository's eslint.config.mjs as if it sat at
 * `filePath` (the rules pick files by path), answering the messages of the given rules only. A snippet
 * that does not parse fails the test rather than pass for having no messages.
 */
export function snippetLinter(rules: readonly string[], format: (m: { ruleId: string; message: string }) => string = (m) => m.message) {
  const wanted = new Set(rules);
  let eslint: ESLint | null = null;
  return async (filePath: string, code: string): Promise<string[]> => {
    // Without the type-aware rules: a snippet linted at a real file's path (lib/domain/context.ts) would
    // otherwise have the whole program built for it, half a minute, for rules these tests do not check.
    eslint ??= new ESLint({
      cwd: path.resolve(import.meta.dirname, "../.."),
      overrideConfig: [
        {
          files: ["**/*.{ts,tsx}"],
          languageOptions: { parserOptions: { projectService: false } },
          rules: { "@typescript-eslint/no-floating-promises": "off", "@typescript-eslint/no-misused-promises": "off" },
        },
      ],
    });
    const [result] = await eslint.lintText(code, { filePath });
    expect(result!.messages.filter((m) => m.fatal)).toEqual([]);
    return result!.messages.filter((m) => m.ruleId !== null && wanted.has(m.ruleId)).map((m) => format({ ruleId: m.ruleId!, message: m.message }));
  };
}
