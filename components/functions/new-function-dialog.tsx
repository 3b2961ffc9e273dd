"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Dialog, Field, FormDialogActions, FormError, Input, Select } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { useCreateFunction, type HostedFunction } from "@/lib/client/functions";
import { FUNCTION_TRIGGER_TYPES } from "@/lib/shared/functions";
import { TRIGGER_LABELS } from "./function-badges";
import { SLUG_MAX, slugFromName, slugProblem } from "./model/slug";
import { functionPath } from "./paths";

const TRIGGER_HINTS: Record<HostedFunction["trigger_type"], string> = {
  KEYWORD: "Runs on messages an automation's keywords match.",
  WELCOME: "Runs on a contact's first message.",
  ANY_MESSAGE: "Runs on every new message.",
};

/**
 * "New function": name, slug (suggested from the name until typed) and the trigger it is written for;
 * then the editor opens with that trigger's starter. Mount it only while open: each opening starts empty.
 */
export function NewFunctionDialog({ projectId, onClose }: { projectId: string; onClose: () => void }) {
  const router = useRouter();
  const create = useCreateFunction(projectId);
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [slugTyped, setSlugTyped] = useState(false);
  const [trigger, setTrigger] = useState<HostedFunction["trigger_type"]>("KEYWORD");
  const [checked, setChecked] = useState(false);

  const effectiveSlug = slugTyped ? slug : slugFromName(name);
  const error = isApiError(create.error) ? create.error : null;
  const nameError = checked && !name.trim() ? "Give the function a name." : error?.fieldError("name");
  const slugError = (checked ? slugProblem(effectiveSlug) : undefined) ?? error?.fieldError("slug");
  const triggerError = error?.fieldError("trigger_type");
  const general = create.error && !nameError && !slugError && !triggerError ? create.error.message : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setChecked(true);
    if (!name.trim() || slugProblem(effectiveSlug)) return;
    create.mutate({ name: name.trim(), slug: effectiveSlug, trigger_type: trigger }, { onSuccess: (fn) => router.push(functionPath(projectId, fn.id)) });
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title="New function"
      description="The editor opens with a starter for the trigger you pick."
      dismissible={!create.isPending}
      onSubmit={submit}
      footer={<FormDialogActions onCancel={onClose} pending={create.isPending} submitLabel="Create function" />}
    >
      <div className="space-y-5">
        <Field label="Name" error={nameError} hint="For you: callers use the slug or the id.">
          <Input value={name} onChange={(e) => setName(e.target.value)} placeholder="Order status" maxLength={120} autoComplete="off" data-autofocus />
        </Field>
        <Field label="Slug" error={slugError} hint="Addresses the function in the API and in config, like its id. It can't change later.">
          <Input
            value={effectiveSlug}
            onChange={(e) => {
              setSlugTyped(true);
              setSlug(e.target.value);
            }}
            placeholder="order-status"
            mono
            maxLength={SLUG_MAX}
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <Field label="Trigger type" error={triggerError} hint={`${TRIGGER_HINTS[trigger]} It shapes the test event.`}>
          <Select value={trigger} onChange={(e) => setTrigger(e.target.value as HostedFunction["trigger_type"])}>
            {FUNCTION_TRIGGER_TYPES.map((type) => (
              <option key={type} value={type}>
                {TRIGGER_LABELS[type]}
              </option>
            ))}
          </Select>
        </Field>
        <FormError>{general}</FormError>
      </div>
    </Dialog>
  );
}
