// monaco-editor ships its languages' Monarch definitions without declarations; the function editor
// reads TypeScript's to highlight code before the TypeScript service starts (typescript-preview.ts).
declare module "monaco-editor/languages/definitions/typescript/typescript" {
  import type { languages } from "monaco-editor/editor";
  export const conf: languages.LanguageConfiguration;
  export const language: languages.IMonarchLanguage;
}
