import { build, type Message, type Plugin } from "esbuild";
import { TraceMap, originalPositionFor } from "@jridgewell/trace-mapping";

/**
 * Deploy's first step (docs/spec/decisions.md "Hosted functions"): TypeScript or JavaScript in,
 * ES2023 JavaScript out, types stripped by esbuild (a maintained transpiler that reports every
 * error with its line and column). Nothing may be imported, so any import is a diagnostic at the
 * import itself. The source map lets a later error (the sandbox's top-level run) point into the
 * source as the author wrote it.
 */

const MODULE_FILE = "function.ts";

interface CompiledModule {
  code: string;
  sourceMap: string;
}

export type CompileOutcome = { ok: true; module: CompiledModule } | { ok: false; diagnostics: string[] };

const noImports: Plugin = {
  name: "svc-no-imports",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /.*/ }, (args) =>
      args.kind === "entry-point"
        ? undefined
        : { errors: [{ text: `'${args.path}' cannot be imported: hosted functions have no modules; use the globals (fetch, env, env.KV, crypto, URL...).` }] },
    );
  },
};

/** `"<line>:<column> <message>"` with 1-based line and column, the shape deploy answers. */
export function formatDiagnostic(line: number, column: number, message: string): string {
  return `${line}:${column} ${message}`;
}

function diagnosticOf(message: Message): string {
  const where = message.location;
  return where ? formatDiagnostic(where.line, where.column + 1, message.text) : formatDiagnostic(1, 1, message.text);
}

export async function compileFunctionSource(source: string): Promise<CompileOutcome> {
  try {
    const result = await build({
      stdin: { contents: source, loader: "ts", sourcefile: MODULE_FILE, resolveDir: "/" },
      bundle: true,
      write: false,
      format: "esm",
      platform: "neutral",
      target: "es2023",
      outfile: "function.js",
      sourcemap: "external",
      sourcesContent: false,
      treeShaking: false,
      legalComments: "none",
      charset: "utf8",
      logLevel: "silent",
      // Without it an unused `import x from "fs"` would be dropped as a type-only import, not refused.
      tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
      plugins: [noImports],
    });
    const code = result.outputFiles.find((file) => file.path.endsWith(".js"))?.text ?? "";
    const sourceMap = result.outputFiles.find((file) => file.path.endsWith(".map"))?.text ?? "";
    return { ok: true, module: { code, sourceMap } };
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors;
    if (!errors) throw error;
    return { ok: false, diagnostics: errors.map(diagnosticOf) };
  }
}

/** A 1-based position in the compiled code → the same place in the source (the position as is when unmapped). */
export function sourcePosition(sourceMap: string | null, line: number, column: number): { line: number; column: number } {
  if (!sourceMap) return { line, column };
  const mapped = originalPositionFor(new TraceMap(sourceMap), { line, column: Math.max(column - 1, 0) });
  if (mapped.line === null || mapped.column === null) return { line, column };
  return { line: mapped.line, column: mapped.column + 1 };
}
