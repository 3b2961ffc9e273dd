"use client";

import { useState, type FormEvent } from "react";
import { Dialog, Field, FormDialogActions, FormError, Input, Select, useToast } from "@/components/ui";
import { AlertIcon } from "@/components/ui/icons";
import { LazyJsonEditor } from "@/components/code-editor/json-editor-lazy";
import { isApiError } from "@/lib/client/api";
import { useCreateTool, useUpdateTool, type AgentConnector, type AgentTool, type ToolBackingType } from "@/lib/client/agents";
import { defaultBacking, draftFromTool, emptyTool, toolBody, type ToolDraft } from "../model/tool-draft";
import { BackingFields } from "./backing-fields";

const BACKINGS: { value: ToolBackingType; label: string }[] = [
  { value: "HOSTED_FUNCTION", label: "Hosted function" },
  { value: "FLOW", label: "Flow" },
  { value: "API_ENDPOINT", label: "API endpoint" },
  { value: "NOOP", label: "Fixed response (NOOP)" },
];

export function ToolDialog({
  projectId,
  agentId,
  connector,
  tool,
  open,
  onClose,
}: {
  projectId: string;
  agentId: string;
  connector: AgentConnector;
  tool: AgentTool | null;
  open: boolean;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="lg"
      title={tool ? `Edit tool ${tool.name}` : `New tool on ${connector.name}`}
      description="What the agent can call, and what runs when it does."
    >
      {open && <ToolForm projectId={projectId} agentId={agentId} connector={connector} tool={tool} onDone={onClose} />}
    </Dialog>
  );
}

/** 422 invalid_tool_backing: the server's sentence says which backing is wrong and why. */
function BackingError({ message }: { message: string }) {
  return (
    <div role="alert" className="flex gap-2.5 rounded-md bg-red-50 px-3 py-2.5 text-sm text-red-900 ring-1 ring-red-200 ring-inset">
      <AlertIcon className="mt-0.5 shrink-0" />
      <div>
        <p className="font-medium">The tool&apos;s backing isn&apos;t valid</p>
        <p className="mt-0.5">{message}</p>
      </div>
    </div>
  );
}

function ToolForm({
  projectId,
  agentId,
  connector,
  tool,
  onDone,
}: {
  projectId: string;
  agentId: string;
  connector: AgentConnector;
  tool: AgentTool | null;
  onDone: () => void;
}) {
  const [draft, setDraft] = useState<ToolDraft>(() => (tool ? draftFromTool(tool) : emptyTool(defaultBacking(connector.type))));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateTool(projectId, agentId);
  const update = useUpdateTool(projectId, agentId);
  const mutation = tool ? update : create;
  const toast = useToast();
  const set = (patch: Partial<ToolDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const error = (field: string) => errors[field] ?? (isApiError(mutation.error) ? mutation.error.fieldError(field) : undefined);
  const backingError = isApiError(mutation.error) && mutation.error.code === "invalid_tool_backing" ? mutation.error.message : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const built = toolBody(draft);
    setErrors(built.errors ?? {});
    if (!built.body) return;
    const done = { onSuccess: () => (toast.show({ title: tool ? "Tool saved" : "Tool created", tone: "success" }), onDone()) };
    if (tool) update.mutate({ id: tool.id, ...built.body }, done);
    else create.mutate({ connectorId: connector.id, ...built.body }, done);
  };

  return (
    <form onSubmit={submit} className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Tool name" error={error("name")} hint="Lower-case letters, digits and _.">
          <Input mono value={draft.name} onChange={(e) => set({ name: e.target.value })} data-autofocus />
        </Field>
        <Field label="Backing">
          <Select value={draft.backingType} onChange={(e) => set({ backingType: e.target.value as ToolBackingType })}>
            {BACKINGS.map((b) => (
              <option key={b.value} value={b.value}>
                {b.label}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <Field label="Tool description" optional error={error("description")}>
        <Input value={draft.description} onChange={(e) => set({ description: e.target.value })} />
      </Field>
      <BackingFields projectId={projectId} draft={draft} set={set} error={error} />
      <div className="space-y-1.5">
        <p className="text-[13px] font-medium text-slate-800">
          Input schema <span className="text-xs font-normal text-slate-500">(optional JSON Schema, type object)</span>
        </p>
        <LazyJsonEditor
          path={`agent-tool-schema-${tool?.id ?? "new"}.json`}
          label="Input schema JSON"
          value={draft.inputSchema}
          onChange={(inputSchema) => set({ inputSchema })}
          height="8rem"
        />
        {error("input_schema") && (
          <p role="alert" className="text-xs font-medium text-red-600">
            {error("input_schema")}
          </p>
        )}
      </div>
      {backingError ? (
        <BackingError message={backingError} />
      ) : (
        <FormError>{mutation.error && !(isApiError(mutation.error) && mutation.error.issues) ? mutation.error.message : null}</FormError>
      )}
      <div className="flex justify-end gap-2">
        <FormDialogActions onCancel={onDone} pending={mutation.isPending} submitLabel={tool ? "Save tool" : "Create tool"} />
      </div>
    </form>
  );
}
