"use client";

import { useRef, useState, type KeyboardEvent } from "react";
import { CodeEditorFrame } from "@/components/code-editor/code-editor-frame";
import type { MarkerSpot } from "@/components/code-editor/marker-spot";
import type { CodeEditorInstance } from "./function-code-editor";
import { LazyFunctionCodeEditor } from "./function-code-lazy";

export interface FunctionCodeAreaProps {
  functionId: string;
  value: string;
  onChange: (text: string) => void;
  /** Ctrl/Cmd+S in the code area: save the draft. */
  onSave: () => void;
  markers: MarkerSpot[];
  secretNames: readonly string[];
  readOnly: boolean;
  label: string;
}

const HEIGHT = "32rem";

/** Moves the caret (and focus, when the plain text area had it) into Monaco, at the same place in the text. */
function handOver(plain: HTMLTextAreaElement | null, editor: CodeEditorInstance) {
  if (!plain || document.activeElement !== plain) return;
  const model = editor.getModel();
  if (!model) return;
  const start = model.getPositionAt(plain.selectionStart);
  const end = model.getPositionAt(plain.selectionEnd);
  editor.focus();
  editor.setSelection({ startLineNumber: start.lineNumber, startColumn: start.column, endLineNumber: end.lineNumber, endColumn: end.column });
}

/**
 * The function's code, editable at once: a plain text area holds the code (and takes typing, Ctrl+S
 * included) while Monaco downloads, and Monaco takes over, with the text typed so far and the caret
 * where it was, once it is on screen. Both sit in the shared code-editor frame (Esc then Tab leaves).
 */
export function FunctionCodeArea({ functionId, value, onChange, onSave, markers, secretNames, readOnly, label }: FunctionCodeAreaProps) {
  const [monacoReady, setMonacoReady] = useState(false);
  const plain = useRef<HTMLTextAreaElement>(null);

  const ready = (editor: CodeEditorInstance) => {
    handOver(plain.current, editor);
    setMonacoReady(true);
  };

  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
      event.preventDefault();
      onSave();
    }
  };

  return (
    <CodeEditorFrame readOnly={readOnly} testId="function-code-editor">
      <div className="relative" style={{ height: HEIGHT }} data-editor={monacoReady ? "monaco" : "plain"}>
        {!monacoReady && (
          <textarea
            ref={plain}
            data-code-fallback
            aria-label={label}
            value={value}
            onChange={(event) => onChange(event.target.value)}
            onKeyDown={keyDown}
            readOnly={readOnly}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            wrap="off"
            className="absolute inset-0 z-10 size-full resize-none bg-white py-0 pr-4 pl-[4.25rem] font-mono text-[13px] leading-[19px] text-slate-900 outline-none"
            style={{ tabSize: 2 }}
          />
        )}
        <LazyFunctionCodeEditor
          functionId={functionId}
          value={value}
          onChange={onChange}
          onSave={onSave}
          onReady={ready}
          markers={markers}
          secretNames={secretNames}
          readOnly={readOnly}
          label={label}
          height={HEIGHT}
        />
      </div>
    </CodeEditorFrame>
  );
}
