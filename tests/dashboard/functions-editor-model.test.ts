import { transform } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { FUNCTION_COMPILER_OPTIONS } from "@/components/functions/model/compiler-options";
import { diagnosticMarkers, parseDiagnostic } from "@/components/functions/model/diagnostics";
import { starterSource } from "@/components/functions/model/starters";
import { FUNCTION_TYPINGS_PATH, functionTypings } from "@/components/functions/model/typings";
import { compileFunctionSource } from "@/lib/domain/functions/compile";
import { FUNCTION_RUNTIMES, FUNCTION_TRIGGER_TYPES } from "@/lib/shared/functions";

/**
 * The functions editor's TypeScript world, checked by the TypeScript service Monaco itself runs in
 * the browser (its worker class, loaded here in Node): the typings and every starter type-check
 * under the editor's compiler options, the typings are really in force (no DOM, secrets by name,
 * KV's signatures, hover docs), the starters transpile as deploy does, and deploy diagnostics land
 * where they point.
 */

interface TsDiagnostic {
  messageText: string | { messageText: string };
  start?: number;
}
interface TsWorker {
  getSyntacticDiagnostics(fileName: string): Promise<TsDiagnostic[]>;
  getSemanticDiagnostics(fileName: string): Promise<TsDiagnostic[]>;
  getQuickInfoAtPosition(fileName: string, position: number): Promise<{ documentation?: { text: string }[] } | undefined>;
}
type WorkerClass = new (
  ctx: { getMirrorModels(): unknown[] },
  createData: { compilerOptions: unknown; extraLibs: Record<string, { content: string; version: number }> },
) => TsWorker;

let TypeScriptWorker: WorkerClass;

beforeAll(async () => {
  // A variable specifier: the module has no type declarations (the interfaces above say what is used).
  const specifier = "monaco-editor/languages/features/typescript/tsWorker";
  ({ TypeScriptWorker } = (await import(/* @vite-ignore */ specifier)) as { TypeScriptWorker: WorkerClass });
}, 60_000);

const FILE = "file:///functions/fn_test.ts";

function checker(source: string, secretNames: string[] = []): TsWorker {
  const model = { uri: { path: "/functions/fn_test.ts", toString: () => FILE }, version: 1, getValue: () => source };
  return new TypeScriptWorker(
    { getMirrorModels: () => [model] },
    { compilerOptions: FUNCTION_COMPILER_OPTIONS, extraLibs: { [FUNCTION_TYPINGS_PATH]: { content: functionTypings(secretNames), version: 1 } } },
  );
}

const text = (diagnostic: TsDiagnostic) => (typeof diagnostic.messageText === "string" ? diagnostic.messageText : diagnostic.messageText.messageText);

async function problems(source: string, secretNames: string[] = []): Promise<string[]> {
  const worker = checker(source, secretNames);
  return [...(await worker.getSyntacticDiagnostics(FILE)), ...(await worker.getSemanticDiagnostics(FILE))].map(text);
}

const STARTERS = FUNCTION_TRIGGER_TYPES.flatMap((trigger) =>
  FUNCTION_RUNTIMES.map((runtime) => ({ trigger, runtime, source: starterSource(trigger, runtime) })),
);

describe("the typings", () => {
  it("are a declaration file the editor's TypeScript accepts without a single diagnostic", async () => {
    const worker = checker("export {};", ["API_TOKEN", "WEBHOOK_SECRET"]);
    expect(
      [...(await worker.getSyntacticDiagnostics(FUNCTION_TYPINGS_PATH)), ...(await worker.getSemanticDiagnostics(FUNCTION_TYPINGS_PATH))].map(text),
    ).toEqual([]);
  });

  it("offer the sandbox's globals and ES2023, and nothing of the browser", async () => {
    const fine = `export default async function (event: FunctionEvent, ctx: FunctionContext) {
  const url = new URL("https://example.com/a?b=1");
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ok: true }) });
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  console.warn(response.status, url.searchParams.get("b"), btoa("x"), new TextEncoder().encode("é").length, crypto.randomUUID(), bytes);
  const timer = setInterval(() => console.debug(ctx.invocation_id), 10);
  setTimeout(() => clearInterval(timer), 25);
  queueMicrotask(() => Response.json({ fine: true }, { status: 201 }));
  return [3, 1, 2].toSorted().findLast((n) => n > 1);
}`;
    expect(await problems(fine)).toEqual([]);
    const browserOnly = await problems(`export default function () { return document.title + window.name; }`);
    expect(browserOnly.join("\n")).toMatch(/Cannot find name 'document'/);
    expect(browserOnly.join("\n")).toMatch(/Cannot find name 'window'/);
  });

  it("make each secret a string property of env, flag a secret that was never set and keep KV's signatures", async () => {
    const source = `export default async function () {
  const token: string = env.API_TOKEN;
  await env.KV.put("k", token);
  const value: string | null = await env.KV.get("k");
  const page = await env.KV.list({ prefix: "user:" });
  return { value, cursor: page.cursor, names: page.keys.map((key) => key.name), missing: env.NOT_SET };
}`;
    const found = await problems(source, ["API_TOKEN"]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/Property 'NOT_SET' does not exist on type 'FunctionEnv'/);
    expect((await problems(`export default async function () { await env.KV.get(1); }`)).join("\n")).toMatch(/not assignable to parameter of type 'string'/);
  });

  it("give env.KV's methods their documentation on hover", async () => {
    const source = `export default async function () { return env.KV.get("visits"); }`;
    const info = await checker(source).getQuickInfoAtPosition(FILE, source.indexOf("get(") + 1);
    expect(info?.documentation?.map((part) => part.text).join("")).toContain("Reads a value");
  });

  it("narrow the event by its type: arguments exist on an invoke event only", async () => {
    const found = await problems(`export default function (event: FunctionEvent) { return event.type === "message" ? event.arguments : event.text; }`);
    expect(found.join("\n")).toMatch(/Property 'arguments' does not exist/);
    expect(found.join("\n")).toMatch(/Property 'text' does not exist/);
  });

  it("type a WFP handler's request, env and ctx through `satisfies WorkerHandler`", async () => {
    const wrong = `export default { async fetch(request, env, ctx) { ctx.waitUntil(Promise.resolve()); return request.method.length; } } satisfies WorkerHandler;`;
    // The parameters got their types from WorkerHandler; the number returned is what is refused.
    expect((await problems(wrong)).join("\n")).toMatch(/'\(request: Request, env: FunctionEnv, ctx: WorkerContext\) => Promise<number>' is not assignable/);
  });
});

describe("the starters", () => {
  it("are one per trigger type and runtime, each its own", () => {
    expect(new Set(STARTERS.map((starter) => starter.source)).size).toBe(FUNCTION_TRIGGER_TYPES.length * FUNCTION_RUNTIMES.length);
    for (const { runtime, source } of STARTERS) {
      if (runtime === "WFP") expect(source).toMatch(/export default \{\n {2}async fetch\(request, env, ctx\)/);
      else expect(source).toMatch(/export default async function \(event: FunctionEvent, ctx: FunctionContext\)/);
    }
  });

  it.each(STARTERS)("$trigger / $runtime type-checks in the editor without a diagnostic", async ({ source }) => {
    expect(await problems(source)).toEqual([]);
  });

  it.each(STARTERS)("$trigger / $runtime transpiles as a TypeScript module with a default export", async ({ source }) => {
    const { code, warnings } = await transform(source, { loader: "ts", format: "esm", target: "es2023" });
    expect(warnings).toEqual([]);
    expect(code).toMatch(/export (default|\{[^}]*\bas default\b)/);
    expect(code).not.toMatch(/satisfies|: FunctionEvent/);
  });

  it.each(STARTERS)("$trigger / $runtime passes deploy's compile step (no imports, ES2023 out)", async ({ source }) => {
    const outcome = await compileFunctionSource(source);
    expect(outcome).toMatchObject({ ok: true });
  });
});

describe("deploy diagnostics", () => {
  it("read line, column and message, and keep a text without a position whole", () => {
    expect(parseDiagnostic("12:5 Expected ';' but found 'x'")).toEqual({ line: 12, column: 5, message: "Expected ';' but found 'x'" });
    expect(parseDiagnostic("Module has no default export")).toEqual({ line: null, column: null, message: "Module has no default export" });
    expect(parseDiagnostic("0:0 uncaught")).toEqual({ line: null, column: null, message: "uncaught" });
  });

  it("mark the word at the reported place of a real compile error", async () => {
    const source = `export default async function (event) {\n  const x = 1;\n  return x +* 2;\n}\n`;
    const outcome = await compileFunctionSource(source);
    if (outcome.ok) throw new Error("expected a syntax error");
    const [spot] = diagnosticMarkers(source, outcome.diagnostics);
    const reported = parseDiagnostic(outcome.diagnostics[0]!);
    expect(spot).toMatchObject({ startLineNumber: 3, endLineNumber: 3, startColumn: reported.column, message: reported.message });
    expect(source.split("\n")[2]!.slice(spot!.startColumn - 1, spot!.endColumn - 1)).toBe("*");
  });

  it("mark an import where it stands, spanning the identifier", async () => {
    const source = `import fs from "fs";\nexport default function () { return fs; }\n`;
    const outcome = await compileFunctionSource(source);
    if (outcome.ok) throw new Error("expected the import to be refused");
    const [spot] = diagnosticMarkers(source, outcome.diagnostics);
    expect(spot).toMatchObject({ startLineNumber: 1, endLineNumber: 1 });
    expect(spot!.message).toMatch(/cannot be imported/);
  });

  it("extend to the end of the word, and stay inside the text when the position is past it", () => {
    const source = "const total = 1;\nreturn totl;";
    expect(diagnosticMarkers(source, ["2:8 Cannot find name 'totl'"])).toEqual([
      { startLineNumber: 2, startColumn: 8, endLineNumber: 2, endColumn: 12, message: "Cannot find name 'totl'" },
    ]);
    expect(diagnosticMarkers(source, ["9:40 Unexpected end of file"])[0]).toMatchObject({ startLineNumber: 2, startColumn: 12, endColumn: 13 });
    expect(diagnosticMarkers(source, ["The module exports nothing"])[0]).toMatchObject({ startLineNumber: 1, startColumn: 1, endColumn: 17 });
  });
});
