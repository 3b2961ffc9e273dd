"use client";

import { Field, Input, Select } from "@/components/ui";
import { LazyJsonEditor } from "@/components/code-editor/json-editor-lazy";
import { FlowPicker, FunctionPicker } from "@/components/pickers/resource-pickers";
import type { ToolDraft } from "../model/tool-draft";

type Errors = (field: string) => string | undefined;

/** The fields of the tool's backing type. */
export function BackingFields({
  projectId,
  draft,
  set,
  error,
}: {
  projectId: string;
  draft: ToolDraft;
  set: (patch: Partial<ToolDraft>) => void;
  error: Errors;
}) {
  switch (draft.backingType) {
    case "FLOW":
      // FLOW: the project's PUBLISHED flows only (anything else is a 422 invalid_tool_backing).
      return <FlowPicker projectId={projectId} value={draft.flowId} onChange={(flowId) => set({ flowId })} error={error("backing_flow_id")} />;
    case "HOSTED_FUNCTION":
      return (
        <FunctionPicker
          projectId={projectId}
          value={draft.functionId}
          onChange={(functionId) => set({ functionId })}
          error={error("backing_function_id")}
          hint="Deployed, active functions; called with event type agent_tool."
        />
      );
    case "API_ENDPOINT":
      return (
        <div className="grid gap-3 sm:grid-cols-[8rem_1fr]">
          <Field label="Method">
            <Select value={draft.method} onChange={(e) => set({ method: e.target.value === "GET" ? "GET" : "POST" })}>
              <option value="POST">POST</option>
              <option value="GET">GET</option>
            </Select>
          </Field>
          <Field label="Path" error={error("config.path")} hint="Joined to the connector's base URL.">
            <Input mono value={draft.path} placeholder="/orders/status" onChange={(e) => set({ path: e.target.value })} />
          </Field>
        </div>
      );
    case "NOOP":
      return (
        <div className="space-y-1.5">
          <p className="text-[13px] font-medium text-slate-800">Response (JSON)</p>
          <LazyJsonEditor
            path={`agent-tool-noop-${draft.name || "new"}.json`}
            label="NOOP response JSON"
            value={draft.noopResponse}
            onChange={(noopResponse) => set({ noopResponse })}
            height="7rem"
          />
          <p className="text-xs text-slate-500">Returned as is; a {"{text}"} becomes the reply.</p>
          {error("config.response") && (
            <p role="alert" className="text-xs font-medium text-red-600">
              {error("config.response")}
            </p>
          )}
        </div>
      );
  }
}
