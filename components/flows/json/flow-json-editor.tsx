"use client";

import type { OnMount } from "@monaco-editor/react";
import { useEffect, useRef, useState } from "react";
import { CodeEditor } from "@/components/code-editor/code-editor";
import { monaco, registerJsonSchema } from "@/components/code-editor/monaco-setup";
import type { Finding } from "../model/findings";
import { FLOW_JSON_FILE_MATCH, FLOW_JSON_SCHEMA, FLOW_JSON_SCHEMA_URI } from "./flow-json-schema";
import { findingMarkers } from "./markers";
import { CODE_EDITOR_OPTIONS } from "@/components/code-editor/editor-options";

export interface FlowJsonEditorProps {
  flowId: string;
  value: string;
  readOnly: boolean;
  onChange?: (text: string) => void;
  /** Ctrl/Cmd+S inside the editor (Monaco keeps the key from reaching the page). */
  onSave?: () => void;
  findings: Finding[];
  /** True when the findings' JSON pointers refer to this text (a flow given as Flow JSON). */
  pointersIntoText: boolean;
  /** The editor's accessible name. */
  label: string;
}

// The schema applies to models named *.flow.json; one model per flow (`path` below).
registerJsonSchema({ uri: FLOW_JSON_SCHEMA_URI, fileMatch: [FLOW_JSON_FILE_MATCH], schema: FLOW_JSON_SCHEMA });

const MARKER_OWNER = "svc-flow-findings";
type CodeEditor = Parameters<OnMount>[0];

/**
 * The Flow JSON tab's editor: Monaco (bundled, components/code-editor/monaco-setup.ts) with the Flow
 * JSON schema for squiggles and completion while typing, and the saved flow's findings as error markers.
 */
export function FlowJsonEditor({ flowId, value, readOnly, onChange, onSave, findings, pointersIntoText, label }: FlowJsonEditorProps) {
  const [editor, setEditor] = useState<CodeEditor | null>(null);
  const onSaveRef = useRef(onSave);
  onSaveRef.current = onSave;

  useEffect(() => {
    const model = editor?.getModel();
    if (!model) return;
    const spots = findingMarkers(model.getValue(), findings, pointersIntoText);
    monaco.editor.setModelMarkers(
      model,
      MARKER_OWNER,
      spots.map((spot) => ({ ...spot, severity: monaco.MarkerSeverity.Error, source: "svc" })),
    );
  }, [editor, findings, pointersIntoText, value]);

  const mount: OnMount = (instance) => {
    instance.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => onSaveRef.current?.());
    setEditor(instance);
  };

  return (
    <CodeEditor
      testId="flow-json-editor"
      height="36rem"
      language="json"
      path={`flow-json/${flowId}.flow.json`}
      value={value}
      onChange={(text) => onChange?.(text ?? "")}
      onMount={mount}
      options={{
        ...CODE_EDITOR_OPTIONS,
        readOnly,
        readOnlyMessage: { value: "Built from the draft at the last save: edit the flow in the Builder tab." },
        ariaLabel: label,
      }}
    />
  );
}
