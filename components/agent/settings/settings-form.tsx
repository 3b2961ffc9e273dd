"use client";

import { useState, type FormEvent } from "react";
import { Button, Card, CardBody, CardHeader, Field, FormError, Input, Textarea, useToast } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { useUpdateAgentSettings, type BusinessAgent } from "@/lib/client/agents";
import { ChipsInput } from "../chips-input";
import { draftFromSettings, settingsBody, type SettingsDraft } from "../model/settings-draft";
import { FaqEditor } from "./faq-editor";

/** The agent's settings (PUT /business-agents/{id}/settings). Remounted per agent (key), so the draft starts from its settings. */
export function SettingsForm({ projectId, agent, canWrite }: { projectId: string; agent: BusinessAgent; canWrite: boolean }) {
  const [draft, setDraft] = useState<SettingsDraft>(() => draftFromSettings(agent.settings));
  const save = useUpdateAgentSettings(projectId, agent.id);
  const toast = useToast();
  const set = (patch: Partial<SettingsDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const fieldError = (field: string) => (isApiError(save.error) ? save.error.fieldError(field) : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(settingsBody(draft, agent.settings), { onSuccess: () => toast.show({ title: "Settings saved", tone: "success" }) });
  };

  return (
    <Card>
      <CardHeader title="Settings" description="How the agent speaks, when it hands over to a person, and what it knows." />
      <CardBody>
        <form onSubmit={submit} className="space-y-4">
          <fieldset disabled={!canWrite} className="grid gap-4 sm:grid-cols-2">
            <Field label="Persona" optional error={fieldError("persona")} hint="Who the agent is, in a sentence or two.">
              <Textarea rows={3} value={draft.persona} onChange={(e) => set({ persona: e.target.value })} />
            </Field>
            <Field label="Language" optional error={fieldError("language")} hint="A language tag, e.g. en or pt_BR.">
              <Input value={draft.language} onChange={(e) => set({ language: e.target.value })} />
            </Field>
            <div className="space-y-1.5">
              <p className="text-[13px] font-medium text-slate-800">Handoff keywords</p>
              <ChipsInput label="Handoff keyword" values={draft.handoffKeywords} onChange={(handoffKeywords) => set({ handoffKeywords })} />
              <p className="text-xs text-slate-500">A message with one of these words passes the conversation to the inbox.</p>
            </div>
            <Field label="Handoff message" optional hint="Sent when the agent hands over.">
              <Textarea rows={2} value={draft.handoffMessage} onChange={(e) => set({ handoffMessage: e.target.value })} />
            </Field>
            <Field label="Fallback message" optional hint="Sent when no skill or FAQ entry matches; empty = stay silent." className="sm:col-span-2">
              <Textarea rows={2} value={draft.fallbackMessage} onChange={(e) => set({ fallbackMessage: e.target.value })} />
            </Field>
          </fieldset>
          <FaqEditor rows={draft.faq} onChange={(faq) => set({ faq })} disabled={!canWrite} />
          <FormError>{save.error && !(isApiError(save.error) && save.error.issues) ? save.error.message : null}</FormError>
          {canWrite && (
            <Button type="submit" variant="primary" loading={save.isPending}>
              Save settings
            </Button>
          )}
        </form>
      </CardBody>
    </Card>
  );
}
