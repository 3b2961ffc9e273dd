"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { channelLabel, defaultChannelId } from "@/components/templates/model/channels";
import { Checkbox, Dialog, Field, FormDialogActions, FormError, Input, Select, Spinner } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { useCreateBroadcast, type BroadcastCreateRequest } from "@/lib/client/broadcasts";
import type { Channel } from "@/lib/client/channels";
import { useTemplates } from "@/lib/client/templates";
import { broadcastPath } from "./paths";
import { useActionKeys } from "./use-action-keys";

/** The browser's local "YYYY-MM-DDTHH:mm" (datetime-local) as an ISO instant; null when empty or unreadable. */
function localToIso(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function TemplatePicker({
  projectId,
  channelId,
  value,
  onChange,
  error,
}: {
  projectId: string;
  channelId: string;
  value: string;
  onChange: (id: string) => void;
  error?: string | undefined;
}) {
  const templates = useTemplates(projectId, { channel_id: channelId || undefined, status: "APPROVED" });
  const approved = templates.data?.pages.flatMap((page) => page.data) ?? [];
  if (templates.isPending) return <Spinner label="Loading approved templates" />;
  return (
    <Field
      label="Template"
      error={error ?? (approved.length === 0 ? "This channel has no APPROVED template yet: build one on Templates and wait for its review." : undefined)}
      hint="Only APPROVED templates of this channel can be broadcast."
    >
      <Select value={value} onChange={(e) => onChange(e.target.value)} disabled={approved.length === 0}>
        <option value="">Pick a template</option>
        {approved.map((template) => (
          <option key={template.id} value={template.id}>
            {template.name} ({template.language})
          </option>
        ))}
      </Select>
    </Field>
  );
}

/**
 * "New broadcast": name, channel (the project's own PLATFORM_A numbers), an APPROVED template of it
 * and an optional start time. Creates a DRAFT and opens it, where recipients are added. Mount it only
 * while open: its Idempotency-Key lives as long as the dialog, so a retry never creates two.
 */
export function NewBroadcastDialog({ projectId, channels, onClose }: { projectId: string; channels: readonly Channel[]; onClose: () => void }) {
  const router = useRouter();
  const create = useCreateBroadcast(projectId);
  const keys = useActionKeys();
  const [name, setName] = useState("");
  const [channelId, setChannelId] = useState(() => defaultChannelId(channels));
  const [templateId, setTemplateId] = useState("");
  const [scheduled, setScheduled] = useState(false);
  const [sendAt, setSendAt] = useState("");
  const [missing, setMissing] = useState<Record<string, string>>({});

  const apiError = isApiError(create.error) ? create.error : null;
  const fieldError = (field: string) => missing[field] ?? apiError?.fieldError(field);
  const fieldsShown = ["name", "channel_id", "template", "template.id", "send_at"];
  const general = create.error && !fieldsShown.some((field) => apiError?.fieldError(field)) ? create.error.message : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const at = scheduled ? localToIso(sendAt) : null;
    const problems: Record<string, string> = {};
    if (!name.trim()) problems.name = "Give it a name.";
    if (!channelId) problems.channel_id = "Pick a channel.";
    if (!templateId) problems.template = "Pick an approved template.";
    if (scheduled && !at) problems.send_at = "Pick a date and time.";
    setMissing(problems);
    if (Object.keys(problems).length > 0) return;
    const request: BroadcastCreateRequest = { name: name.trim(), channel_id: channelId, template: { id: templateId }, ...(at ? { send_at: at } : {}) };
    create.mutate(
      { request, idempotencyKey: keys.keyFor("create", request) },
      {
        onSuccess: (broadcast) => {
          keys.settled("create");
          onClose();
          router.push(broadcastPath(projectId, broadcast.id));
        },
      },
    );
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title="New broadcast"
      description="It starts as a draft: add its recipients next, then send it now or at the time you pick."
      dismissible={!create.isPending}
      onSubmit={submit}
      footer={<FormDialogActions onCancel={onClose} pending={create.isPending} submitLabel="Create draft" />}
    >
      <div className="space-y-5">
        <Field label="Name" error={fieldError("name")} hint="For you and your team; customers never see it.">
          <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} data-autofocus placeholder="November sale" />
        </Field>
        <Field
          label="Channel"
          error={fieldError("channel_id") ?? (channels.length === 0 ? "Connect your own business messaging (PLATFORM_A) number on Channels first." : undefined)}
        >
          <Select
            value={channelId}
            onChange={(e) => {
              setChannelId(e.target.value);
              setTemplateId("");
            }}
          >
            {channels.map((channel) => (
              <option key={channel.id} value={channel.id}>
                {channelLabel(channel)}
              </option>
            ))}
          </Select>
        </Field>
        {channelId && (
          <TemplatePicker
            projectId={projectId}
            channelId={channelId}
            value={templateId}
            onChange={setTemplateId}
            error={fieldError("template") ?? fieldError("template.id")}
          />
        )}
        <Checkbox
          label="Schedule for later"
          description="Otherwise it starts when you press Send."
          checked={scheduled}
          onChange={(e) => setScheduled(e.target.checked)}
        />
        {scheduled && (
          <Field label="Start at" error={fieldError("send_at")} hint="Your local time.">
            <Input type="datetime-local" value={sendAt} onChange={(e) => setSendAt(e.target.value)} />
          </Field>
        )}
        <FormError>{general}</FormError>
      </div>
    </Dialog>
  );
}
