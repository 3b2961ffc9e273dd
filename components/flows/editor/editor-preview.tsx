"use client";

import { useState } from "react";
import type { Flow } from "@/lib/client/flows";
import { FlowPreview } from "../preview/flow-preview";
import { parseFlowJson, type FlowEditorState } from "./use-flow-editor";

/**
 * What the preview draws. A draft flow: the compiled Flow JSON of the last save, or, while there are
 * unsaved edits, the draft screens themselves (nothing is compiled in the browser). A Flow JSON flow:
 * the text being typed whenever it parses, else the last save.
 */
export function EditorPreview({
  flow,
  editor,
  selectedUid,
  onSelect,
}: {
  flow: Flow;
  editor: FlowEditorState;
  selectedUid: string | null;
  onSelect: (uid: string) => void;
}) {
  const [jsonScreen, setJsonScreen] = useState<string | null>(null);
  const saved = flow.flow_json ?? null;

  if (editor.mode === "draft" && editor.working) {
    const working = editor.working;
    const screenId = working.screens.find((screen) => screen.uid === selectedUid)?.id ?? null;
    return (
      <FlowPreview
        flowJson={saved}
        unsavedDraft={editor.dirty ? working : null}
        screenId={screenId}
        onScreenChange={(id) => {
          const uid = working.screens.find((screen) => screen.id === id)?.uid;
          if (uid) onSelect(uid);
        }}
        note={editor.dirty ? "Unsaved changes: the draft as you edit it. Save to see and try the compiled flow." : "The flow as saved."}
      />
    );
  }
  const parsed = editor.dirty ? parseFlowJson(editor.jsonText) : null;
  const typed = parsed && "value" in parsed ? parsed.value : null;
  const note = !editor.dirty ? "The flow as saved." : typed ? "Unsaved changes: the text as typed." : "The text isn't valid JSON: showing the last save.";
  return <FlowPreview flowJson={typed ?? saved} unsavedDraft={null} screenId={jsonScreen} onScreenChange={setJsonScreen} note={note} />;
}
