"use client";

import { useEffect, useRef } from "react";
import { DiffEditor, type DiffOnMount } from "@monaco-editor/react";
import { Spinner } from "@/components/ui";
import { CodeEditorFrame } from "./code-editor-frame";
import { CODE_EDITOR_OPTIONS } from "./editor-options";
import "./monaco-setup";
// The diff editor's commands and accessible diff viewer (F7 / Shift+F7 step through the changes).
import "monaco-editor/features/diffEditor/register";

export interface DiffViewerProps {
  /** What is there now (left, or the removed lines inline). */
  original: string;
  /** What it becomes (right, or the added lines inline). */
  modified: string;
  /** Monaco's language id of both sides. */
  language: string;
  /** The accessible names of the two sides. */
  originalLabel: string;
  modifiedLabel: string;
  height?: string;
  testId?: string;
}

/**
 * A read-only diff in the dashboard's one Monaco (Monaco's diff editor, computed by the bundled editor
 * worker), in the shared frame. Side by side when there is room, inline otherwise.
 */
export function DiffViewer({ original, modified, language, originalLabel, modifiedLabel, height = "24rem", testId }: DiffViewerProps) {
  // @monaco-editor/react disposes both models before the diff widget lets go of them on unmount, which
  // Monaco reports as an uncaught "TextModel got disposed before DiffEditorWidget model got reset". The
  // binding keeps the models; this detaches them from the widget first, then disposes them.
  const editorRef = useRef<Parameters<DiffOnMount>[0] | null>(null);
  useEffect(
    () => () => {
      const editor = editorRef.current;
      const models = editor?.getModel();
      editor?.setModel(null);
      models?.original.dispose();
      models?.modified.dispose();
    },
    [],
  );
  return (
    <CodeEditorFrame readOnly testId={testId}>
      <DiffEditor
        height={height}
        language={language}
        original={original}
        modified={modified}
        loading={<Spinner label="Loading the changes" />}
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        onMount={(editor) => {
          editorRef.current = editor;
        }}
        options={{
          ...CODE_EDITOR_OPTIONS,
          readOnly: true,
          // Read-only: Tab moves focus rather than being taken by the editor.
          tabFocusMode: true,
          originalEditable: false,
          // A diff shows what changes, not a language service's opinion of either side.
          renderValidationDecorations: "off",
          renderSideBySide: true,
          useInlineViewWhenSpaceIsLimited: true,
          renderOverviewRuler: false,
          originalAriaLabel: originalLabel,
          modifiedAriaLabel: modifiedLabel,
        }}
      />
    </CodeEditorFrame>
  );
}
