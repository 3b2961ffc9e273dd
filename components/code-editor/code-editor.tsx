"use client";

import Editor, { type EditorProps } from "@monaco-editor/react";
import { Spinner } from "@/components/ui";
import { CodeEditorFrame } from "./code-editor-frame";
import "./monaco-setup";

export interface CodeEditorProps extends EditorProps {
  /** The frame's classes (its ring and corners); the editor fills it. */
  frameClassName?: string;
  testId?: string;
}

/** Monaco takes Tab even when read-only (it only types nothing): a read-only editor lets Tab move focus instead. */
function readOnlyTabs(options: EditorProps["options"]): { tabFocusMode?: boolean } {
  return options?.readOnly ? { tabFocusMode: true } : {};
}

/**
 * Monaco as every page of the dashboard shows it: @monaco-editor/react's editor (the bundled Monaco of
 * monaco-setup.ts) in the shared frame, which lets keyboard users leave it with Escape then Tab and
 * says so under it.
 */
export function CodeEditor({ frameClassName, testId, loading, options, ...props }: CodeEditorProps) {
  return (
    <CodeEditorFrame readOnly={Boolean(options?.readOnly)} className={frameClassName} testId={testId}>
      <Editor {...props} options={{ ...options, ...readOnlyTabs(options) }} loading={loading ?? <Spinner label="Loading the editor" />} />
    </CodeEditorFrame>
  );
}
