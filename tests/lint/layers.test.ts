import { describe, expect, it } from "vitest";
import { snippetLinter } from "./lint-snippet";

/**
 * The layer rule in eslint.config.mjs (ARCHITECTURE.md: imports point down only; components and
 * lib/client reach server code through `import type` only), checked on snippets linted as if they sat at
 * the given path. `npm run lint` applies it to the real tree; this pins what it must and must not catch.
 */
const layerErrors = snippetLinter(["@typescript-eslint/no-restricted-imports", "no-restricted-syntax"]);

describe("layer rule: a lower layer never imports a higher one", () => {
  it.each([
    ["lib/ports/provider/x.ts", `import { a } from "@/lib/domain/messages/content"; export const b = a;`],
    ["lib/ports/provider/x.ts", `import { a } from "../../domain/messages/content"; export const b = a;`],
    ["lib/ports/provider/x.ts", `import type { A } from "@/lib/domain/messages/content"; export type B = A;`],
    ["lib/ports/queue/x.ts", `import { a } from "@/lib/api/route"; export const b = a;`],
    ["lib/domain/messages/x.ts", `import { a } from "@/lib/api/route"; export const b = a;`],
    ["lib/domain/messages/x.ts", `export { a } from "../../api/route";`],
    ["lib/domain/messages/x.ts", `export const f = () => import("@/lib/api/route");`],
    ["lib/domain/messages/x.ts", `import { a } from "@/app/page"; export const b = a;`],
    ["lib/api/x.ts", `import { a } from "@/app/page"; export const b = a;`],
    ["lib/shared/x.ts", `import { a } from "@/lib/domain/keys"; export const b = a;`],
    ["lib/shared/x.ts", `import type { A } from "@/lib/ports/clock"; export type B = A;`],
  ])("%s: %s is an error", async (filePath, code) => {
    const errors = await layerErrors(filePath, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("ARCHITECTURE.md");
  });

  it.each([
    ["lib/domain/messages/x.ts", `import { a } from "@/lib/ports/clock"; export const b = a;`],
    ["lib/domain/messages/x.ts", `import { a } from "@/lib/db/schema"; export const b = a;`],
    ["lib/domain/messages/x.ts", `import { a } from "../shared/paging"; export const b = a;`],
    ["lib/api/x.ts", `import { a } from "@/lib/domain/messages"; export const b = a;`],
    ["lib/ports/provider/x.ts", `import { a } from "../net"; export const b = a;`],
    ["lib/domain/messages/x.ts", `import { a } from "@/lib/apiary"; export const b = a;`],
  ])("%s: %s is allowed", async (filePath, code) => {
    expect(await layerErrors(filePath, code)).toEqual([]);
  });
});

describe("layer rule: the browser side imports server code for types only", () => {
  it.each([
    ["components/keys/x.tsx", `import { a } from "@/lib/domain/keys/catalog"; export const b = a;`],
    ["components/keys/x.tsx", `import { a } from "@/lib/ports/clock"; export const b = a;`],
    ["lib/client/x.ts", `import { a } from "@/lib/db/schema"; export const b = a;`],
    ["lib/client/x.ts", `import { a } from "../server/runtime"; export const b = a;`],
    ["components/keys/x.tsx", `export const f = () => import("@/lib/domain/keys");`],
  ])("%s: runtime %s is an error", async (filePath, code) => {
    const errors = await layerErrors(filePath, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("import type");
  });

  it.each([
    ["components/keys/x.tsx", `import type { A } from "@/lib/domain/keys"; export type B = A;`],
    ["components/keys/x.tsx", `import { type A } from "@/lib/domain/keys"; export type B = A;`],
    ["lib/client/x.ts", `import type { A } from "@/lib/server/runtime"; export type B = A;`],
    ["components/keys/x.tsx", `import { a } from "@/lib/client/keys"; export const b = a;`],
    ["components/keys/x.tsx", `import { a } from "@/lib/shared/scope-catalog"; export const b = a;`],
    ["lib/domain/keys/x.ts", `import { a } from "@/lib/shared/scopes"; export const b = a;`],
  ])("%s: %s is allowed", async (filePath, code) => {
    expect(await layerErrors(filePath, code)).toEqual([]);
  });
});
