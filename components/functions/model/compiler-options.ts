/**
 * The editor's TypeScript settings for hosted functions, in the shape Monaco's TypeScript service takes
 * (its CompilerOptions; plain numbers where its enums stop short). Deploy transpiles to ES2023
 * (docs/spec/decisions.md "Hosted functions"), so the editor checks against ES2023's built-ins and the
 * declarations of typings.ts, and nothing else: no DOM, no Node, no @types.
 */
export const FUNCTION_COMPILER_OPTIONS = {
  /** ScriptTarget.ES2023 of the TypeScript inside Monaco (5.9); Monaco's own enum lists targets up to ES2020 only. */
  target: 10,
  /** ModuleKind.ESNext. */
  module: 99,
  /** ModuleDetectionKind.Force: every model is a module (its names never clash with another function's); the typings stay global. */
  moduleDetection: 3,
  /**
   * Lib file names, not tsconfig's short names: Monaco's worker passes them to the compiler as they
   * are, and a short name ("es2023") loads as a file without the .d.ts suffix, which moduleDetection
   * Force would read as a module, keeping its globals out of scope.
   */
  lib: ["lib.es2023.d.ts"],
  types: [] as string[],
  strict: true,
  /** Plain JavaScript pasted into the editor (parameters without types) is fine: deploy accepts it. */
  noImplicitAny: false,
  noEmit: true,
  /** Monaco's default, kept: model paths need not end in a TypeScript extension. */
  allowNonTsExtensions: true,
};
