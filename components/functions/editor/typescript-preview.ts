"use client";

import type { BeforeMount } from "@monaco-editor/react";
import { conf, language } from "monaco-editor/languages/definitions/typescript/typescript";

/**
 * A language of our own for the function editor's first paint: TypeScript's highlighting (Monaco's
 * own Monarch definition, so the colours are the same) without the TypeScript language service.
 * Monaco starts that service, and downloads its worker, the moment a model of language `typescript`
 * exists; the editor switches its model to `typescript` once it is up (function-code-editor.tsx).
 */
export const TYPESCRIPT_PREVIEW = "svc-typescript-preview";

export const registerTypeScriptPreview: BeforeMount = (monaco) => {
  if (monaco.languages.getLanguages().some((known: { id: string }) => known.id === TYPESCRIPT_PREVIEW)) return;
  monaco.languages.register({ id: TYPESCRIPT_PREVIEW });
  monaco.languages.setLanguageConfiguration(TYPESCRIPT_PREVIEW, conf);
  monaco.languages.setMonarchTokensProvider(TYPESCRIPT_PREVIEW, language);
};
