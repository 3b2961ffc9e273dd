import { describe, expect, it } from "vitest";
import { snippetLinter } from "./lint-snippet";

/**
 * The core → feature rule in eslint.config.mjs (ARCHITECTURE.md, "Reactions"): a core module of
 * lib/domain never imports a feature at runtime; features import the core, and lib/domain/reactions.ts
 * (the composition root) imports both. Snippets are linted as if they sat at the given path.
 */
const importErrors = snippetLinter(["@typescript-eslint/no-restricted-imports", "no-restricted-syntax"]);

describe("core → feature imports", () => {
  it.each([
    ["lib/domain/ingest/x.ts", `import { a } from "@/lib/domain/automations/hook"; export const b = a;`],
    ["lib/domain/ingest/x.ts", `import { a } from "../broadcasts/progress"; export const b = a;`],
    ["lib/domain/messages/x.ts", `export { a } from "@/lib/domain/broadcasts/progress";`],
    ["lib/domain/messages/x.ts", `export const f = () => import("@/lib/domain/templates/send-check");`],
    ["lib/domain/conversations/x.ts", `import { a } from "@/lib/domain/agents/thread-control"; export const b = a;`],
    ["lib/domain/webhooks/x.ts", `import { a } from "@/lib/domain/flows/forwarded"; export const b = a;`],
    ["lib/domain/channels/deep/x.ts", `import { a } from "../../flows/key-job"; export const b = a;`],
    ["lib/domain/context.ts", `import { a } from "@/lib/domain/reactions"; export const b = a;`],
  ])("%s: %s is an error", async (filePath, code) => {
    const errors = await importErrors(filePath, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("the core never imports a feature");
  });

  it.each([
    // A type is erased: no runtime edge.
    ["lib/domain/webhooks/x.ts", `import type { A } from "@/lib/domain/flows/events"; export type B = A;`],
    // Features use the core, and each other.
    ["lib/domain/broadcasts/x.ts", `import { a } from "@/lib/domain/messages/status"; export const b = a;`],
    ["lib/domain/automations/x.ts", `import { a } from "../flows/send"; export const b = a;`],
    // The composition root names both sides.
    [
      "lib/domain/reactions.ts",
      `import { a } from "@/lib/domain/flows/reactions"; import { c } from "@/lib/domain/ingest/reactions"; export const b = [a, c];`,
    ],
    // Core to core.
    ["lib/domain/ingest/x.ts", `import { a } from "../conversations/thread-owner"; export const b = a;`],
  ])("%s: %s is allowed", async (filePath, code) => {
    expect(await importErrors(filePath, code)).toEqual([]);
  });

  it("the layer rule still holds in the core modules (a later config entry replaces the rule for them)", async () => {
    const errors = await importErrors("lib/domain/ingest/x.ts", `import type { A } from "@/lib/api/route"; export type B = A;`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("imports point down only");
  });
});
