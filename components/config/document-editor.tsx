"use client";

import { useEffect } from "react";
import "monaco-editor/languages/definitions/yaml/register";
import { CodeEditor } from "@/components/code-editor/code-editor";
import { CODE_EDITOR_OPTIONS } from "@/components/code-editor/editor-options";
import { registerJsonSchema, type JSONSchema } from "@/components/code-editor/monaco-setup";
import type { DocumentFormat } from "./model/document";

export interface DocumentEditorProps {
  /** Which editor this is ("export", "draft"): one Monaco model per name and format. */
  name: string;
  format: DocumentFormat;
  value: string;
  onChange?: (text: string) => void;
  readOnly?: boolean;
  /** The editor's accessible name. */
  label: string;
  /** GET /config/schema.json, checked while typing JSON (YAML is highlighted only). */
  schema?: Record<string, unknown> | null;
  height?: string;
  testId?: string;
}

const FILE_MATCH = "*.svc-config.json";
const DEFAULT_SCHEMA_URI = "https://schemas.svc.local/editor/config.schema.json";

/**
 * The document carries its own `$schema` URL, which Monaco would try (and fail) to download: the
 * schema is registered under that URL too, so the reference resolves locally.
 */
function schemaUriOf(text: string): string {
  return /"\$schema"\s*:\s*"([^"]+)"/.exec(text)?.[1] ?? DEFAULT_SCHEMA_URI;
}

/**
 * A config document in the dashboard's one Monaco (components/code-editor/monaco-setup.ts), as JSON
 * or YAML; Monaco's YAML highlighting is imported here, so only this page's chunk carries it.
 */
export function DocumentEditor({ name, format, value, onChange, readOnly = false, label, schema, height = "28rem", testId }: DocumentEditorProps) {
  const schemaUri = format === "json" ? schemaUriOf(value) : null;
  useEffect(() => {
    if (schemaUri) registerJsonSchema({ uri: schemaUri, fileMatch: [FILE_MATCH], schema: (schema ?? {}) as JSONSchema });
  }, [schemaUri, schema]);

  return (
    <CodeEditor
      frameClassName="rounded-lg ring-1 ring-slate-200 focus-within:ring-2 focus-within:ring-indigo-600"
      testId={testId}
      height={height}
      language={format}
      path={format === "json" ? `config/${name}.svc-config.json` : `config/${name}.svc-config.yaml`}
      value={value}
      onChange={(text) => onChange?.(text ?? "")}
      options={{
        ...CODE_EDITOR_OPTIONS,
        readOnly,
        readOnlyMessage: { value: "The exported config is read-only: edit a copy below and apply it." },
        ariaLabel: label,
      }}
    />
  );
}
