"use client";

import { useState, type FormEvent, type RefObject } from "react";
import { Button, Field, FormError, Input } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { useUpdateFunctionSecrets } from "@/lib/client/functions";
import { MAX_SECRETS_PER_FUNCTION, SECRET_NAME_PATTERN } from "@/lib/shared/functions";

const MAX_VALUE = 4096;

function nameProblem(name: string, existing: readonly string[]): string | undefined {
  if (!name) return "Give the secret a name.";
  if (!SECRET_NAME_PATTERN.test(name)) return "Upper-case letters, digits and _, starting with a letter (at most 64).";
  if (name === "KV") return "KV is the key-value store's name in env: choose another.";
  if (!existing.includes(name) && existing.length >= MAX_SECRETS_PER_FUNCTION)
    return `A function has at most ${MAX_SECRETS_PER_FUNCTION} secrets: delete one first.`;
  return undefined;
}

/**
 * Sets a secret: a new name adds it, an existing one gets a new value. The value is sent once and
 * never shown again; the field empties after saving.
 */
export function SecretForm({
  projectId,
  functionId,
  existing,
  name,
  onNameChange,
  valueRef,
}: {
  projectId: string;
  functionId: string;
  existing: readonly string[];
  name: string;
  onNameChange: (name: string) => void;
  valueRef: RefObject<HTMLInputElement | null>;
}) {
  const update = useUpdateFunctionSecrets(projectId, functionId);
  const [value, setValue] = useState("");
  const [checked, setChecked] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);

  const nameError = checked ? nameProblem(name, existing) : undefined;
  const valueError = checked && !value ? "Give it a value." : undefined;
  const apiError = isApiError(update.error) ? update.error : null;
  const issues = apiError?.issues ? Object.values(apiError.issues).flat() : [];

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setChecked(true);
    setSaved(null);
    if (nameProblem(name, existing) || !value) return;
    update.mutate(
      { [name]: value },
      {
        onSuccess: () => {
          setSaved(name);
          setValue("");
          setChecked(false);
          onNameChange("");
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Set a secret" className="space-y-3">
      <div className="grid gap-3 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_auto] sm:items-start">
        <Field label="Name" error={nameError}>
          <Input
            mono
            value={name}
            onChange={(e) => onNameChange(e.target.value.toUpperCase())}
            placeholder="API_TOKEN"
            maxLength={64}
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <Field label="Value" error={valueError} hint="Write-only: it is never shown again.">
          <Input
            ref={valueRef}
            type="password"
            mono
            value={value}
            onChange={(e) => setValue(e.target.value)}
            maxLength={MAX_VALUE}
            autoComplete="new-password"
            spellCheck={false}
          />
        </Field>
        <Button type="submit" className="sm:mt-[1.375rem]" loading={update.isPending}>
          {existing.includes(name) ? "Replace value" : "Add secret"}
        </Button>
      </div>
      <FormError>{update.error ? [update.error.message, ...issues].join(" ") : null}</FormError>
      {saved && (
        <p role="status" className="text-[13px] text-emerald-700">
          {saved} saved. The code reads it as env.{saved}.
        </p>
      )}
    </form>
  );
}
