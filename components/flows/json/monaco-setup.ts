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
import "monaco-editor/features/readOnlyMessage/register";
import "monaco-editor/features/suggest/register";
import "monaco-editor/features/wordHighlighter/register";
import "monaco-editor/features/wordOperations/register";
import { jsonDefaults } from "monaco-editor/languages/features/json/register";
import { FLOW_JSON_FILE_MATCH, FLOW_JSON_SCHEMA, FLOW_JSON_SCHEMA_URI } from "./flow-json-schema";

/**
 * Monaco from the installed `monaco-editor` package, bundled by the app; nothing comes from a CDN
 * (@monaco-editor/react's default loader fetches Monaco from jsdelivr, which this deployment must not
 * depend on). Only the editor core, the editing features listed above and the JSON language are
 * imported (monaco-editor ≥ 0.56 has these tree-shakeable entry points), not Monaco's ~80 languages.
 *
 * Workers: Monaco asks MonacoEnvironment.getWorker for one per label; each is a module worker the
 * bundler builds from the small files next to this one (`new Worker(new URL(...), import.meta.url)`).
 * This module runs in the browser only: it is imported by flow-json-editor.tsx, which the page loads
 * through next/dynamic with ssr: false, so no other page loads Monaco.
 */
globalThis.MonacoEnvironment = {
  getWorker(_workerId: string, label: string) {
    if (label === "json") return new Worker(new URL("./json.worker.ts", import.meta.url), { type: "module", name: "monaco-json" });
    return new Worker(new URL("./editor.worker.ts", import.meta.url), { type: "module", name: "monaco-editor" });
  },
};

jsonDefaults.setDiagnosticsOptions({
  validate: true,
  allowComments: false,
  trailingCommas: "error",
  enableSchemaRequest: false,
  schemaValidation: "error",
  schemas: [{ uri: FLOW_JSON_SCHEMA_URI, fileMatch: [FLOW_JSON_FILE_MATCH], schema: FLOW_JSON_SCHEMA }],
});

loader.config({ monaco });

export { monaco };
