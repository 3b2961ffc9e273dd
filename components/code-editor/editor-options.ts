import type { EditorProps } from "@monaco-editor/react";

/** What every code editor of the dashboard shares (Flow JSON, function source, JSON fields). */
export const CODE_EDITOR_OPTIONS = {
  minimap: { enabled: false },
  fontSize: 13,
  tabSize: 2,
  automaticLayout: true,
  scrollBeyondLastLine: false,
  fixedOverflowWidgets: true,
  renderValidationDecorations: "on",
} as const satisfies NonNullable<EditorProps["options"]>;
