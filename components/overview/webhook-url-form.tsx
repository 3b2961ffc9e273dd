"use client";

import { useState, type FormEvent } from "react";
import { Button, Field, Input, useToast } from "@/components/ui";
import { useUpdateProject } from "@/lib/client/projects";
import { webhookUrlErrorText } from "./webhook-url-error";

/**
 * The endpoint URL, edited in place. Empty + Save turns events off (webhook_url null). Saving the same
 * URL again is allowed on purpose: that is how a paused webhook is resumed.
 */
export function WebhookUrlForm({ projectId, current, canWrite }: { projectId: string; current: string | null; canWrite: boolean }) {
  const [draft, setDraft] = useState(current ?? "");
  const [saved, setSaved] = useState(current);
  const update = useUpdateProject(projectId, { optimistic: false });
  // The URL changed elsewhere (another tab, the API): follow it unless the operator is mid-edit.
  if (current !== saved) {
    setSaved(current);
    if (draft.trim() === (saved ?? "")) setDraft(current ?? "");
  }
  const toast = useToast();
  const trimmed = draft.trim();
  const dirty = trimmed !== (current ?? "");
  const fieldError = webhookUrlErrorText(update.error);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!canWrite) return;
    update.mutate(
      { webhook_url: trimmed === "" ? null : trimmed },
      {
        onSuccess: (project) => {
          setDraft(project.webhook_url ?? "");
          toast.show({
            tone: "success",
            title: project.webhook_url ? "Webhook URL saved" : "Webhook URL removed",
            description: project.webhook_url ? "New events go to this endpoint." : "Events are no longer delivered anywhere.",
          });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Field
        label="Endpoint URL"
        error={fieldError}
        hint={
          canWrite
            ? "svc POSTs inbound messages and events here as JSON. Leave empty and save to stop deliveries."
            : "Your role can see the webhook; a developer or admin can change it."
        }
      >
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            type="url"
            inputMode="url"
            mono
            value={draft}
            onChange={(event) => {
              setDraft(event.target.value);
              if (update.isError) update.reset();
            }}
            placeholder={canWrite ? "https://your-app.example.com/webhooks/svc" : "No webhook URL set"}
            readOnly={!canWrite}
            autoComplete="off"
            spellCheck={false}
            className="min-w-0 flex-1"
          />
          {canWrite && (
            <Button type="submit" variant={dirty ? "primary" : "secondary"} loading={update.isPending} disabled={!dirty && !current}>
              Save
            </Button>
          )}
        </div>
      </Field>
    </form>
  );
}
