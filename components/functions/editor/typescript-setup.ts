"use client";

import { typescriptDefaults } from "@/components/code-editor/monaco-setup";
import { FUNCTION_COMPILER_OPTIONS } from "../model/compiler-options";
import { FUNCTION_TYPINGS_PATH, functionTypings } from "../model/typings";

let configured = false;

/**
 * Points Monaco's TypeScript service at a hosted function's world: ES2023 without the DOM, and the
 * declarations of typings.ts for the function's secret names. The service is one per page; adding the
 * declarations again with other secret names replaces them (same path).
 */
export function applyFunctionTypeScript(secretNames: readonly string[]): void {
  if (!configured) {
    typescriptDefaults.setCompilerOptions(FUNCTION_COMPILER_OPTIONS);
    typescriptDefaults.setDiagnosticsOptions({ noSemanticValidation: false, noSyntaxValidation: false, noSuggestionDiagnostics: false });
    configured = true;
  }
  typescriptDefaults.addExtraLib(functionTypings(secretNames), FUNCTION_TYPINGS_PATH);
}
