"use client";

import { useEffect } from "react";
import { CodeEditor } from "./code-editor";
import { registerJsonSchema, type JSONSchema } from "./monaco-setup";
import { CODE_EDITOR_OPTIONS } from "./editor-options";

export interface JsonEditorProps {
  /** The model's path, ending in `.json`: one model per path, kept while the page lives. */
  path: string;
  value: string;
  onChange: (text: string) => void;
  /** The editor's accessible name. */
  label: string;
  /** A JSON Schema checked while typing (squiggles, hovers, completion); the server still decides. */
  schema?: Record<string, unknown> | null;
  height?: string;
  readOnly?: boolean;
  testId?: string;
}

const SCHEMA_BASE = "https://schemas.svc.local/editor/";

/** A small JSON editor (Monaco, components/code-editor/monaco-setup.ts), optionally checked against a JSON Schema. */
export function JsonEditor({ path, value, onChange, label, schema, height = "10rem", readOnly = false, testId }: JsonEditorProps) {
  // A new schema revalidates the open models (Monaco's JSON options change), so an effect is soon enough.
  useEffect(() => registerJsonSchema({ uri: `${SCHEMA_BASE}${path}`, fileMatch: [path], schema: (schema ?? {}) as JSONSchema }), [path, schema]);

  return (
    <CodeEditor
      frameClassName="rounded-md ring-1 ring-slate-300 focus-within:ring-2 focus-within:ring-indigo-600"
      testId={testId}
      height={height}
      language="json"
      path={path}
      value={value}
      onChange={(text) => onChange(text ?? "")}
      options={{
        ...CODE_EDITOR_OPTIONS,
        readOnly,
        ariaLabel: label,
        lineNumbers: "off",
        folding: false,
        glyphMargin: false,
        lineDecorationsWidth: 8,
        renderLineHighlight: "none",
      }}
    />
  );
}
