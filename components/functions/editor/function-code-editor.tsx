"use client";

import Editor, { type OnMount } from "@monaco-editor/react";
import { useEffect, useRef, useState } from "react";
import type { MarkerSpot } from "@/components/code-editor/marker-spot";
import { monaco } from "@/components/code-editor/monaco-setup";
import { Spinner } from "@/components/ui";
import { applyFunctionTypeScript } from "./typescript-setup";
import { CODE_EDITOR_OPTIONS } from "@/components/code-editor/editor-options";

export interface FunctionCodeEditorProps {
  functionId: string;
  value: string;
  onChange: (text: string) => void;
  /** Ctrl/Cmd+S inside the editor (Monaco keeps the key from reaching the page). */
  onDeploy: () => void;
  /** The last failed deploy's diagnostics, placed in the text. */
  markers: MarkerSpot[];
  /** The function's secrets, typed as properties of `env`. */
  secretNames: readonly string[];
  readOnly: boolean;
  /** The editor's accessible name. */
  label: string;
}

const MARKER_OWNER = "svc-deploy";
type CodeEditor = Parameters<OnMount>[0];

/**
 * The function's source in Monaco's TypeScript mode (bundled, components/code-editor/monaco-setup.ts):
 * completion, hovers and type errors against the function's typings while typing, and the last
 * deploy's diagnostics as error markers of their own.
 */
export function FunctionCodeEditor({ functionId, value, onChange, onDeploy, markers, secretNames, readOnly, label }: FunctionCodeEditorProps) {
  const [editor, setEditor] = useState<CodeEditor | null>(null);
  const onDeployRef = useRef(onDeploy);
  onDeployRef.current = onDeploy;
  const secretKey = secretNames.join(",");

  useEffect(() => applyFunctionTypeScript(secretKey ? secretKey.split(",") : []), [secretKey]);

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
    instance.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => onDeployRef.current());
    setEditor(instance);
  };

  return (
    <div className="overflow-hidden rounded-lg ring-1 ring-slate-200" data-testid="function-code-editor">
      <Editor
        height="32rem"
        language="typescript"
        // One model per function; `.ts` makes the TypeScript service read it as a module.
        path={`functions/${functionId}.ts`}
        value={value}
        onChange={(text) => onChange(text ?? "")}
        onMount={mount}
        loading={<Spinner label="Loading the editor" />}
        options={{
          ...CODE_EDITOR_OPTIONS,
          readOnly,
          readOnlyMessage: { value: "Your role can read this function but not change it." },
          ariaLabel: label,
        }}
      />
    </div>
  );
}
