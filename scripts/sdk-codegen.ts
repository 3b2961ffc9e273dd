/**
 * The SDK's generated files (packages/sdk): the OpenAPI document exactly as GET /api/v1/openapi.json
 * serves it (built in-process from the route registry, the same code the route runs), the
 * TypeScript types openapi-typescript derives from it, and the types of the CLI login routes
 * (/api/cli, lib/cli-api/routes.ts: not in the served document, but the SDK's login client needs
 * them). Used by scripts/sdk-generate.ts (writes them) and scripts/sdk-check.ts (CI: fails when the
 * committed ones are stale).
 *
 * The types are `.ts` files, not `.d.ts`: the package is built with tsc (packages/sdk/tsconfig.build.json),
 * which emits declarations for `.ts` sources but never copies a `.d.ts` one into dist/.
 *
 * Deterministic: object keys are sorted before writing and before generating, and both files go
 * through the repo's Prettier config, so the same routes always give the same bytes (and
 * `npm run format:check` accepts them as committed).
 */
import fs from "node:fs";
import path from "node:path";
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from "openapi-typescript";
import * as prettier from "prettier";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { apiRoutes } from "@/lib/api/registry";
import { cliRoutes } from "@/lib/cli-api/routes";

export const SDK_DIR = path.resolve(import.meta.dirname, "..", "packages", "sdk");
/** Paths relative to the SDK package. */
export const GENERATED_FILES = ["openapi.json", "src/schema.ts", "src/cli-login-schema.ts"] as const;
export type GeneratedFile = (typeof GENERATED_FILES)[number];

const header = (source: string) => `${COMMENT_HEADER.trimEnd()}
/* Source: ${source} (scripts/sdk-codegen.ts). Regenerate with \`npm run sdk:generate\`. */
`;

/** A copy of `value` whose objects list their keys in code-point order (arrays keep theirs: order matters there). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/** The served document with sorted keys (a JSON round trip first: it drops what JSON.stringify would). */
export function servedDocument(): Record<string, unknown> {
  return sortKeys(JSON.parse(JSON.stringify(buildOpenApiDocument(apiRoutes)))) as Record<string, unknown>;
}

async function format(source: string, filepath: string): Promise<string> {
  const config = (await prettier.resolveConfig(filepath)) ?? {};
  return prettier.format(source, { ...config, filepath });
}

/** The CLI login routes' document, sorted like the served one; only its types are written. */
function cliLoginDocument(): Record<string, unknown> {
  return sortKeys(JSON.parse(JSON.stringify(buildOpenApiDocument(cliRoutes)))) as Record<string, unknown>;
}

async function typesOf(document: Record<string, unknown>, source: string, file: GeneratedFile): Promise<string> {
  const ast = await openapiTS(structuredClone(document) as unknown as OpenAPI3, { alphabetize: true, silent: true });
  return format(header(source) + "\n" + astToString(ast), path.join(SDK_DIR, file));
}

/** The generated files' contents, keyed by their path in the SDK package. */
export async function renderSdkFiles(document: Record<string, unknown> = servedDocument()): Promise<Record<GeneratedFile, string>> {
  return {
    "openapi.json": await format(JSON.stringify(document), path.join(SDK_DIR, "openapi.json")),
    "src/schema.ts": await typesOf(document, "GET /api/v1/openapi.json", "src/schema.ts"),
    "src/cli-login-schema.ts": await typesOf(cliLoginDocument(), "the /api/cli routes, lib/cli-api/routes.ts", "src/cli-login-schema.ts"),
  };
}

/** The generated files under `dir` that differ from (or are missing next to) what the routes give now. */
export async function staleSdkFiles(dir: string = SDK_DIR, rendered?: Record<GeneratedFile, string>): Promise<GeneratedFile[]> {
  const expected = rendered ?? (await renderSdkFiles());
  return GENERATED_FILES.filter((file) => {
    const target = path.join(dir, file);
    return !fs.existsSync(target) || fs.readFileSync(target, "utf8") !== expected[file];
  });
}

export async function writeSdkFiles(dir: string = SDK_DIR, rendered?: Record<GeneratedFile, string>): Promise<GeneratedFile[]> {
  const files = rendered ?? (await renderSdkFiles());
  for (const file of GENERATED_FILES) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), files[file]);
  }
  return [...GENERATED_FILES];
}
