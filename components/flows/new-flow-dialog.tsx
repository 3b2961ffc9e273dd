"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Dialog, Field, FormDialogActions, FormError, Input } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { useCreateFlow } from "@/lib/client/flows";
import { flowPath } from "./flows-table";
import { starterDraft } from "./model/starter-draft";

/**
 * "New flow": a name (and optionally the config key and locale it is sent by), then the editor opens
 * on a starter two-screen draft. Mount it only while open: each opening starts empty.
 */
export function NewFlowDialog({ projectId, onClose }: { projectId: string; onClose: () => void }) {
  const router = useRouter();
  const create = useCreateFlow(projectId);
  const [name, setName] = useState("");
  const [configKey, setConfigKey] = useState("");
  const [locale, setLocale] = useState("");
  const [nameMissing, setNameMissing] = useState(false);

  const error = isApiError(create.error) ? create.error : null;
  const conflict = error?.code === "flow_conflict" ? error.message : undefined;
  const nameError = nameMissing ? "Give the flow a name." : error?.fieldError("name");
  const configKeyError = error?.fieldError("config_key") ?? conflict;
  const localeError = error?.fieldError("locale");
  const general = create.error && !nameError && !configKeyError && !localeError ? create.error.message : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setNameMissing(!name.trim());
    if (!name.trim()) return;
    create.mutate(
      { name: name.trim(), config_key: configKey.trim() || undefined, locale: locale.trim() || undefined, draft: starterDraft() },
      { onSuccess: (flow) => router.push(flowPath(projectId, flow.id)) },
    );
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title="New flow"
      description="It starts as a two-screen form you can reshape in the builder."
      dismissible={!create.isPending}
      onSubmit={submit}
      footer={<FormDialogActions onCancel={onClose} pending={create.isPending} submitLabel="Create flow" />}
    >
      <div className="space-y-5">
        <Field label="Name" error={nameError} hint="For you: customers never see it.">
          <Input value={name} onChange={(e) => setName(e.target.value)} placeholder="Lead capture" maxLength={200} autoComplete="off" data-autofocus />
        </Field>
        <Field label="Config key" optional error={configKeyError} hint="Send by this key instead of the flow id; locale variants share it.">
          <Input value={configKey} onChange={(e) => setConfigKey(e.target.value)} placeholder="lead_capture" mono maxLength={100} autoComplete="off" />
        </Field>
        <Field label="Locale" optional error={localeError} hint="A BCP-47 tag such as en or pt-BR. Empty: the default variant.">
          <Input value={locale} onChange={(e) => setLocale(e.target.value)} placeholder="en" mono maxLength={35} autoComplete="off" />
        </Field>
        <FormError>{general}</FormError>
      </div>
    </Dialog>
  );
}
