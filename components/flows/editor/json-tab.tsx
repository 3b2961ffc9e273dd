"use client";

import { EmptyState, InfoIcon } from "@/components/ui";
import { LazyFlowJsonEditor } from "../json/flow-json-lazy";
import type { Finding } from "../model/findings";
import type { FlowEditorState } from "./use-flow-editor";

/**
 * The Flow JSON tab: editable text for a flow given as Flow JSON; for a draft flow, what its last save
 * compiled to, read-only (the builder is where it changes). Findings become markers: pointers into
 * this text, and the provider's line numbers.
 */
export function JsonTab({ flowId, editor, hasCompiled, readOnly }: { flowId: string; editor: FlowEditorState; hasCompiled: boolean; readOnly: boolean }) {
  if (editor.mode === "draft" && !hasCompiled) {
    return (
      <EmptyState
        icon={<InfoIcon />}
        title="No Flow JSON yet"
        description="The draft can't be compiled as saved: fix the problems listed above in the Builder, then save."
      />
    );
  }
  // A draft's findings point into the draft; only those about the compiled layout, and the provider's lines, belong on this text.
  const onText = (finding: Finding) => editor.mode === "json" || finding.lines !== undefined || Boolean(finding.path?.includes("/layout"));
  return (
    <div className="space-y-2">
      {editor.mode === "draft" && <p className="text-[13px] text-slate-500">Compiled from the draft at the last save. Edit the flow in the Builder tab.</p>}
      <LazyFlowJsonEditor
        flowId={flowId}
        value={editor.mode === "json" ? editor.jsonText : editor.savedJsonText}
        readOnly={editor.mode === "draft" || readOnly}
        onChange={editor.mode === "json" ? editor.setJsonText : undefined}
        onSave={editor.save}
        findings={editor.findings.filter(onText)}
        pointersIntoText
        label="Flow JSON"
      />
    </div>
  );
}
