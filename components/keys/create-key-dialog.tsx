"use client";

import { useState, type FormEvent } from "react";
import { Dialog, Field, FormDialogActions, FormError, Input } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { useCreateKey, type CreatedApiKey, type KeyKind } from "@/lib/client/keys";
import { DEFAULT_KEY_PRESET } from "@/lib/shared/scope-catalog";
import { KindPicker } from "./kind-picker";
import { OriginsEditor } from "./origins-editor";
import { ScopePicker } from "./scope-picker";

export interface CreateKeyDialogProps {
  projectId: string;
  onClose: () => void;
  /** Receives the new key with its value: the caller shows it once. */
  onCreated: (key: CreatedApiKey) => void;
}

/** Mount it only while open (`{open && <CreateKeyDialog …/>}`): each opening starts with an empty form. */
export function CreateKeyDialog({ projectId, onClose, onCreated }: CreateKeyDialogProps) {
  const [name, setName] = useState("");
  const [kind, setKind] = useState<KeyKind>("secret");
  const [scopes, setScopes] = useState<string[]>(() => [...DEFAULT_KEY_PRESET.scopes]);
  const [origins, setOrigins] = useState<string[]>([""]);
  const [localErrors, setLocalErrors] = useState<{ name?: string; scopes?: string }>({});
  const create = useCreateKey(projectId);

  const serverError = isApiError(create.error) ? create.error : null;
  const nameError = localErrors.name ?? serverError?.fieldError("name");
  const scopesError = localErrors.scopes ?? serverError?.fieldError("scopes");
  const originErrors = serverError?.issues?.allowed_origins;
  const generalError = create.error && !nameError && !scopesError && !originErrors ? create.error.message : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const errors: typeof localErrors = {};
    if (!name.trim()) errors.name = "Give the key a name, e.g. the server that will use it.";
    if (kind === "secret" && scopes.length === 0) errors.scopes = "Pick at least one scope, or a preset.";
    setLocalErrors(errors);
    if (errors.name || errors.scopes) return;
    const body =
      kind === "secret"
        ? { kind, name: name.trim(), scopes }
        : { kind, name: name.trim(), allowed_origins: origins.map((origin) => origin.trim()).filter(Boolean) };
    create.mutate(body, {
      onSuccess: (key) => {
        create.reset();
        onCreated(key);
      },
    });
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title="Create an API key"
      description="Keys act on this project only. You'll see the full key once, right after creating it."
      size="lg"
      dismissible={!create.isPending}
      onSubmit={submit}
      footer={<FormDialogActions onCancel={onClose} pending={create.isPending} submitLabel="Create key" />}
    >
      <div className="space-y-5">
        <Field label="Name" error={nameError} hint="What uses this key, so you recognise it later.">
          <Input
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="Production server"
            autoComplete="off"
            maxLength={100}
            data-autofocus
          />
        </Field>
        <KindPicker value={kind} onChange={setKind} />
        {kind === "secret" ? (
          <ScopePicker value={scopes} onChange={setScopes} error={scopesError} />
        ) : (
          <OriginsEditor value={origins} onChange={setOrigins} errors={originErrors} />
        )}
        <FormError>{generalError}</FormError>
      </div>
    </Dialog>
  );
}
