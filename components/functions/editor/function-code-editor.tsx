"use client";

import Editor, { type OnMount } from "@monaco-editor/react";
import { useEffect, useRef, useState } from "react";
import { CODE_EDITOR_OPTIONS } from "@/components/code-editor/editor-options";
import type { MarkerSpot } from "@/components/code-editor/marker-spot";
import { monaco } from "@/components/code-editor/monaco-setup";
import { TYPESCRIPT_PREVIEW, registerTypeScriptPreview } from "./typescript-preview";
import { applyFunctionTypeScript } from "./typescript-setup";

export type CodeEditorInstance = Parameters<OnMount>[0];

export interface FunctionCodeEditorProps {
  functionId: string;
  value: string;
  onChange: (text: string) => void;
  /** Ctrl/Cmd+S inside the editor (Monaco keeps the key from reaching the page). */
  onSave: () => void;
  /** The editor is on screen and takes input: the plain text area before it can go. */
  onReady: (editor: CodeEditorInstance) => void;
  /** The last failed deploy's diagnostics, placed in the text. */
  markers: MarkerSpot[];
  /** The function's secrets, typed as properties of `env`. */
  secretNames: readonly string[];
  readOnly: boolean;
  /** The editor's accessible name. */
  label: string;
  height: string;
}

const MARKER_OWNER = "svc-deploy";
/** How long the TypeScript service waits for an idle moment after the editor is up before it starts anyway. */
const LANGUAGE_SERVICE_DELAY_MS = 1500;

/**
 * The function's source in Monaco (bundled, components/code-editor/monaco-setup.ts). It paints and
 * takes typing with TypeScript highlighting only (typescript-preview.ts); the TypeScript language
 * service (completion, hovers and type errors against the function's typings), whose worker is the
 * largest download of the page, starts once the editor is up and the browser is idle. The last
 * deploy's diagnostics are error markers of their own.
 */
export function FunctionCodeEditor({ functionId, value, onChange, onSave, onReady, markers, secretNames, readOnly, label, height }: FunctionCodeEditorProps) {
  const [editor, setEditor] = useState<CodeEditorInstance | null>(null);
  const [language, setLanguage] = useState(TYPESCRIPT_PREVIEW);
  const onSaveRef = useRef(onSave);
  onSaveRef.current = onSave;
  const secretKey = secretNames.join(",");

  useEffect(() => {
    if (!editor) return;
    const start = () => setLanguage("typescript");
    if (typeof window.requestIdleCallback !== "function") {
      const timer = window.setTimeout(start, LANGUAGE_SERVICE_DELAY_MS);
      return () => window.clearTimeout(timer);
    }
    const idle = window.requestIdleCallback(start, { timeout: LANGUAGE_SERVICE_DELAY_MS });
    return () => window.cancelIdleCallback(idle);
  }, [editor]);

  useEffect(() => {
    if (language === "typescript") applyFunctionTypeScript(secretKey ? secretKey.split(",") : []);
  }, [language, secretKey]);

  useEffect(() => {
    const model = editor?.getModel();
    if (!model) return;
    monaco.editor.setModelMarkers(
      model,
      MARKER_OWNER,
      markers.map((spot) => ({ ...spot, severity: monaco.MarkerSeverity.Error, source: "deploy" })),
    );
  }, [editor, markers]);

  const mount: OnMount = (instance) => {
    instance.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => onSaveRef.current());
    setEditor(instance);
    onReady(instance);
  };

  return (
    <Editor
      height={height}
      language={language}
      // One model per function; `.ts` makes the TypeScript service read it as a module.
      path={`functions/${functionId}.ts`}
      value={value}
      onChange={(text) => onChange(text ?? "")}
      onMount={mount}
      beforeMount={registerTypeScriptPreview}
      loading={null}
      options={{
        ...CODE_EDITOR_OPTIONS,
        readOnly,
        // A reader's editor takes no typing, so Tab moves focus (code-editor-frame.tsx says so under it).
        tabFocusMode: readOnly,
        readOnlyMessage: { value: "Your role can read this function but not change it." },
        ariaLabel: label,
      }}
    />
  );
}
