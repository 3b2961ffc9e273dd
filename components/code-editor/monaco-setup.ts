"use client";

import { loader } from "@monaco-editor/react";
import * as monaco from "monaco-editor/editor";
import "monaco-editor/features/bracketMatching/register";
import "monaco-editor/features/clipboard/register";
import "monaco-editor/features/codicon/register";
import "monaco-editor/features/comment/register";
import "monaco-editor/features/contextmenu/register";
import "monaco-editor/features/cursorUndo/register";
import "monaco-editor/features/find/register";
import "monaco-editor/features/folding/register";
import "monaco-editor/features/format/register";
import "monaco-editor/features/gotoError/register";
import "monaco-editor/features/hover/register";
import "monaco-editor/features/indentation/register";
import "monaco-editor/features/linesOperations/register";
import "monaco-editor/features/multicursor/register";
import "monaco-editor/features/parameterHints/register";
import "monaco-editor/features/readOnlyMessage/register";
import "monaco-editor/features/suggest/register";
// Ctrl+M (Ctrl+Shift+M on a Mac): Tab moves focus instead of indenting (code-editor-frame.tsx says so under each editor).
import "monaco-editor/features/toggleTabFocusMode/register";
import "monaco-editor/features/wordHighlighter/register";
import "monaco-editor/features/wordOperations/register";
// What a language's worker manager imports when its service first starts (every editor contribution and
// the services they need): imported here, before the first editor exists, so the standalone services
// are initialised with them. Loaded later (the TypeScript service starts once the editor is idle), the
// next editor made (the deploy diff, a remount) threw "depends on UNKNOWN service ICodeLensCache".
import "monaco-editor/internal/common/workers";
import { jsonDefaults, type JSONSchema } from "monaco-editor/languages/features/json/register";
import "monaco-editor/languages/definitions/typescript/register";
import { typescriptDefaults } from "monaco-editor/languages/features/typescript/register";

/**
 * The one Monaco of the dashboard (the Flow JSON editor, the hosted-functions code editor and their
 * small JSON editors), from the installed `monaco-editor` package, bundled by the app; nothing comes
 * from a CDN (next.config.ts swaps @monaco-editor/react's loader, whose default is jsdelivr, for
 * bundled-monaco-loader.ts, which takes only this Monaco). Only the editor core, the features above, JSON and
 * TypeScript are imported (monaco-editor ≥ 0.56 has these tree-shakeable entry points), not Monaco's
 * ~80 languages. A language's service code and its worker load only when a model of it first opens.
 *
 * Workers: Monaco asks MonacoEnvironment.getWorker for one per label; each is a module worker the
 * bundler builds from the small files next to this one (`new Worker(new URL(...), import.meta.url)`).
 * This module runs in the browser only: the editors that import it are loaded through next/dynamic
 * with ssr: false, so no page without an editor loads Monaco.
 */
globalThis.MonacoEnvironment = {
  getWorker(_workerId: string, label: string) {
    if (label === "json") return new Worker(new URL("./json.worker.ts", import.meta.url), { type: "module", name: "monaco-json" });
    if (label === "typescript" || label === "javascript") {
      return new Worker(new URL("./ts.worker.ts", import.meta.url), { type: "module", name: "monaco-typescript" });
    }
    return new Worker(new URL("./editor.worker.ts", import.meta.url), { type: "module", name: "monaco-editor" });
  },
};

export interface JsonSchemaEntry {
  /** The schema's id; registering the same uri again replaces it. */
  uri: string;
  /** Model paths it applies to (globs such as `*.flow.json`, matched at the end of the model's URI). */
  fileMatch: string[];
  schema: JSONSchema;
}

const jsonSchemas = new Map<string, JsonSchemaEntry>();

function applyJsonOptions(): void {
  jsonDefaults.setDiagnosticsOptions({
    validate: true,
    allowComments: false,
    trailingCommas: "error",
    enableSchemaRequest: false,
    schemaValidation: "error",
    schemas: [...jsonSchemas.values()],
  });
}

/**
 * JSON diagnostics options are one global setting of Monaco: every editor adds its schemas here, so
 * one editor's schemas never replace another's.
 */
export function registerJsonSchema(entry: JsonSchemaEntry): void {
  const known = jsonSchemas.get(entry.uri);
  if (known && JSON.stringify(known) === JSON.stringify(entry)) return;
  jsonSchemas.set(entry.uri, entry);
  applyJsonOptions();
}

applyJsonOptions();
loader.config({ monaco });

export { monaco, typescriptDefaults, type JSONSchema };
