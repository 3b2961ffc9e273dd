"use client";

import { useState, type FormEvent } from "react";
import { Dialog, Field, FormDialogActions, FormError, Input, Select, useToast } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { useCreateConnector, useUpdateConnector, type AgentConnector, type ConnectorType } from "@/lib/client/agents";
import { connectorBody, type ConnectorDraft } from "../model/tool-draft";

const TYPES: { value: ConnectorType; label: string }[] = [
  { value: "FUNCTIONS", label: "Functions — tools run hosted functions" },
  { value: "FLOWS", label: "Flows — tools send published flows" },
  { value: "API", label: "API — tools call your HTTP endpoints" },
  { value: "CUSTOM", label: "Custom — fixed (NOOP) answers" },
];

const str = (value: unknown) => (typeof value === "string" ? value : "");

function draftOf(connector: AgentConnector | null): ConnectorDraft {
  const config = connector?.config ?? {};
  const auth = config.auth_type === "API_KEY" || config.auth_type === "BEARER" ? config.auth_type : "NONE";
  return {
    name: connector?.name ?? "",
    type: connector?.type ?? "FUNCTIONS",
    baseUrl: str(config.base_url),
    authType: auth,
    authHeader: str(config.auth_header),
    secret: str(config.secret),
  };
}

/** New connector, or edit one (`connector`). The secret is write-only: the box starts with the masked value, which keeps the stored one. */
export function ConnectorDialog({
  projectId,
  agentId,
  connector,
  open,
  onClose,
}: {
  projectId: string;
  agentId: string;
  connector: AgentConnector | null;
  open: boolean;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={connector ? `Edit ${connector.name}` : "New connector"}
      description="A connector groups the agent's tools by where they run."
    >
      {open && <ConnectorForm projectId={projectId} agentId={agentId} connector={connector} onDone={onClose} />}
    </Dialog>
  );
}

function ConnectorForm({
  projectId,
  agentId,
  connector,
  onDone,
}: {
  projectId: string;
  agentId: string;
  connector: AgentConnector | null;
  onDone: () => void;
}) {
  const [draft, setDraft] = useState(() => draftOf(connector));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateConnector(projectId, agentId);
  const update = useUpdateConnector(projectId, agentId);
  const mutation = connector ? update : create;
  const toast = useToast();
  const set = (patch: Partial<ConnectorDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const apiError = (field: string) => (isApiError(mutation.error) ? mutation.error.fieldError(field) : undefined);
  const error = (field: string) => errors[field] ?? apiError(field);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const built = connectorBody(draft);
    setErrors(built.errors ?? {});
    if (!built.body) return;
    const done = { onSuccess: () => (toast.show({ title: connector ? "Connector saved" : "Connector created", tone: "success" }), onDone()) };
    if (connector) update.mutate({ id: connector.id, ...built.body }, done);
    else create.mutate(built.body, done);
  };

  return (
    <form onSubmit={submit} className="space-y-4">
      <Field label="Name" error={error("name")}>
        <Input value={draft.name} onChange={(e) => set({ name: e.target.value })} data-autofocus />
      </Field>
      <Field label="Type" error={error("type")}>
        <Select value={draft.type} onChange={(e) => set({ type: e.target.value as ConnectorType })}>
          {TYPES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </Select>
      </Field>
      {draft.type === "API" && (
        <div className="space-y-4 rounded-md bg-slate-50 p-3 ring-1 ring-slate-200">
          <Field label="Base URL" error={error("config.base_url")}>
            <Input mono value={draft.baseUrl} placeholder="https://api.example.com" onChange={(e) => set({ baseUrl: e.target.value })} />
          </Field>
          <Field label="Auth">
            <Select value={draft.authType} onChange={(e) => set({ authType: e.target.value as ConnectorDraft["authType"] })}>
              <option value="NONE">None</option>
              <option value="API_KEY">API key header</option>
              <option value="BEARER">Bearer token</option>
            </Select>
          </Field>
          {draft.authType !== "NONE" && (
            <>
              <Field label="Auth header" optional hint="Default: X-API-Key for an API key, Authorization for a bearer token.">
                <Input mono value={draft.authHeader} onChange={(e) => set({ authHeader: e.target.value })} />
              </Field>
              <Field label="Secret" hint="Write-only: stored sealed, shown masked. Leave the masked value to keep it; clear it to remove it.">
                <Input
                  mono
                  // The masked value read back is safe to show; a newly typed secret is not.
                  type={draft.secret.startsWith("••••") ? "text" : "password"}
                  autoComplete="off"
                  value={draft.secret}
                  onChange={(e) => set({ secret: e.target.value })}
                />
              </Field>
            </>
          )}
        </div>
      )}
      <FormError>{mutation.error && !(isApiError(mutation.error) && mutation.error.issues) ? mutation.error.message : null}</FormError>
      <div className="flex justify-end gap-2">
        <FormDialogActions onCancel={onDone} pending={mutation.isPending} submitLabel={connector ? "Save connector" : "Create connector"} />
      </div>
    </form>
  );
}
