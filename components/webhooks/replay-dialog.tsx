"use client";

import { useState, type FormEvent } from "react";
import { Dialog, Field, FormDialogActions, FormError, Input, Select, useToast } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { DELIVERY_STATUSES, useReplay, type ReplayInput } from "@/lib/client/webhooks";
import { STATUS_LABELS } from "./delivery-status-badge";
import { EventTypeSelect } from "./event-type-select";

/** A datetime-local value (local time, minutes) for a Date. */
function toLocalInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** Re-sends every matching event once (POST …/webhook-deliveries/replay): for after an outage of your endpoint. */
export function ReplayDialog({ projectId, open, onClose }: { projectId: string; open: boolean; onClose: () => void }) {
  const replay = useReplay(projectId);
  const toast = useToast();
  const [since, setSince] = useState(() => toLocalInput(new Date(Date.now() - 3600_000)));
  const [until, setUntil] = useState("");
  const [event, setEvent] = useState("");
  const [status, setStatus] = useState("failed");

  const error = replay.error;
  const fieldError = (field: string) => (isApiError(error) ? error.fieldError(field) : undefined);
  const generalError = error && !fieldError("since") && !fieldError("until") ? error.message : null;

  const close = () => {
    replay.reset();
    onClose();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const input: ReplayInput = {
      since: fromLocalInput(since) ?? since,
      until: fromLocalInput(until),
      event: (event || undefined) as ReplayInput["event"],
      status: (status || undefined) as ReplayInput["status"],
    };
    replay.mutate(input, {
      onSuccess: (result) => {
        toast.show({
          tone: result.count > 0 ? "success" : "info",
          title: result.count > 0 ? `Replaying ${result.count} ${result.count === 1 ? "event" : "events"}` : "No events matched",
          description: result.count > 0 ? "New deliveries appear at the top of the list." : "Widen the time window or change the filters.",
        });
        close();
      },
    });
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Replay events"
      description="Send every matching event to your endpoint once more, as new deliveries with the same event ids."
      dismissible={!replay.isPending}
      onSubmit={submit}
      footer={<FormDialogActions onCancel={close} pending={replay.isPending} submitLabel="Replay events" />}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="From" error={fieldError("since")}>
          <Input type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} required />
        </Field>
        <Field label="Until" optional hint="Empty means now." error={fieldError("until")}>
          <Input type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} />
        </Field>
        <Field label="Event type">
          <EventTypeSelect value={event} onChange={setEvent} />
        </Field>
        <Field label="Latest delivery" hint="Only events whose latest delivery is in this state.">
          <Select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
            <option value="none">Never delivered</option>
          </Select>
        </Field>
      </div>
      <FormError className="mt-4">{generalError}</FormError>
    </Dialog>
  );
}
