"use client";

import { useState, type FormEvent } from "react";
import { Dialog, Field, FormDialogActions, FormError, Input, Select, Textarea } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { useUpdateFlow, type Flow } from "@/lib/client/flows";

/** Name, description, config key, locale and runtime of a flow: saved at once (PATCH), apart from the draft. */
export function DetailsDialog({ projectId, flow, onClose }: { projectId: string; flow: Flow; onClose: () => void }) {
  const update = useUpdateFlow(projectId, flow.id);
  const [name, setName] = useState(flow.name);
  const [description, setDescription] = useState(flow.description ?? "");
  const [configKey, setConfigKey] = useState(flow.config_key ?? "");
  const [locale, setLocale] = useState(flow.locale ?? "");
  const [runtime, setRuntime] = useState(flow.runtime_mode);
  const [dataUrl, setDataUrl] = useState(flow.data_exchange_url ?? "");

  const error = isApiError(update.error) ? update.error : null;
  const fieldError = (field: string) => error?.fieldError(field);
  const conflict = error?.code === "flow_conflict" ? error.message : undefined;
  const shown = ["name", "description", "config_key", "locale", "runtime_mode", "data_exchange_url"].some((f) => fieldError(f)) || conflict;
  const general = update.error && !shown ? update.error.message : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    update.mutate(
      {
        name: name.trim(),
        description: description.trim() || null,
        config_key: configKey.trim() || null,
        locale: locale.trim() || null,
        runtime_mode: runtime,
        data_exchange_url: runtime === "DATA_EXCHANGE" ? dataUrl.trim() || null : null,
      },
      { onSuccess: onClose },
    );
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title="Flow details"
      dismissible={!update.isPending}
      onSubmit={submit}
      footer={<FormDialogActions onCancel={onClose} pending={update.isPending} submitLabel="Save details" />}
    >
      <div className="space-y-5">
        <Field label="Name" error={fieldError("name")}>
          <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} data-autofocus />
        </Field>
        <Field label="Description" optional error={fieldError("description")}>
          <Textarea rows={2} value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} />
        </Field>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Config key" optional error={fieldError("config_key") ?? conflict}>
            <Input mono value={configKey} onChange={(e) => setConfigKey(e.target.value)} maxLength={100} />
          </Field>
          <Field label="Locale" optional error={fieldError("locale")}>
            <Input mono value={locale} onChange={(e) => setLocale(e.target.value)} maxLength={35} placeholder="en" />
          </Field>
        </div>
        <Field label="Runtime" hint="Data exchange asks your endpoint for each screen's data." error={fieldError("runtime_mode")}>
          <Select value={runtime} onChange={(e) => setRuntime(e.target.value as Flow["runtime_mode"])}>
            <option value="STATIC">Static: every screen is in the Flow JSON</option>
            <option value="DATA_EXCHANGE">Data exchange: your endpoint answers</option>
          </Select>
        </Field>
        {runtime === "DATA_EXCHANGE" && (
          <Field label="Data exchange URL" error={fieldError("data_exchange_url")}>
            <Input mono type="url" value={dataUrl} onChange={(e) => setDataUrl(e.target.value)} placeholder="https://example.com/flows/data" />
          </Field>
        )}
        <FormError>{general}</FormError>
      </div>
    </Dialog>
  );
}
