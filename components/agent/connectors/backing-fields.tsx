"use client";

import { Field, Input, Select } from "@/components/ui";
import { LazyJsonEditor } from "@/components/code-editor/json-editor-lazy";
import { useFlows } from "@/lib/client/flows";
import { useFunctions } from "@/lib/client/functions";
import type { ToolDraft } from "../model/tool-draft";

type Errors = (field: string) => string | undefined;

/** FLOW: the project's PUBLISHED flows only (anything else is a 422 invalid_tool_backing). */
function FlowPicker({ projectId, value, onChange, error }: { projectId: string; value: string; onChange: (id: string) => void; error?: string }) {
  const flows = useFlows(projectId);
  const published = (flows.data?.pages.flatMap((p) => p.data) ?? []).filter((flow) => flow.status === "PUBLISHED");
  return (
    <Field
      label="Flow"
      error={error}
      hint={flows.isSuccess && !published.length ? "No published flow yet: publish one on the Flows page." : "Published flows of this project."}
    >
      <Select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{flows.isPending ? "Loading flows…" : "Pick a flow"}</option>
        {published.map((flow) => (
          <option key={flow.id} value={flow.id}>
            {flow.name}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/** HOSTED_FUNCTION: deployed, active functions only. */
function FunctionPicker({ projectId, value, onChange, error }: { projectId: string; value: string; onChange: (id: string) => void; error?: string }) {
  const functions = useFunctions(projectId);
  const deployed = (functions.data?.pages.flatMap((p) => p.data) ?? []).filter((fn) => fn.is_active && fn.active_version_id);
  return (
    <Field
      label="Function"
      error={error}
      hint={
        functions.isSuccess && !deployed.length
          ? "No deployed function yet: deploy one on the Functions page."
          : "Deployed, active functions; called with event type agent_tool."
      }
    >
      <Select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{functions.isPending ? "Loading functions…" : "Pick a function"}</option>
        {deployed.map((fn) => (
          <option key={fn.id} value={fn.id}>
            {fn.name} ({fn.slug})
          </option>
        ))}
      </Select>
    </Field>
  );
}

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
      return <FlowPicker projectId={projectId} value={draft.flowId} onChange={(flowId) => set({ flowId })} error={error("backing_flow_id")} />;
    case "HOSTED_FUNCTION":
      return (
        <FunctionPicker projectId={projectId} value={draft.functionId} onChange={(functionId) => set({ functionId })} error={error("backing_function_id")} />
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
