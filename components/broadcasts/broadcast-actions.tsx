"use client";

import { useState } from "react";
import { Button, ConfirmDialog, useToast } from "@/components/ui";
import { useBroadcastAction, type Broadcast, type BroadcastAction } from "@/lib/client/broadcasts";
import { availableActions, unknownOutcomeWords } from "./model/vocabulary";
import { useActionKeys } from "./use-action-keys";

const DONE: Record<string, string> = {
  send: "Sending started",
  schedule: "Broadcast scheduled",
  resume: "Sending resumed",
  pause: "Broadcast paused",
  cancel: "Broadcast cancelled",
};

/**
 * Send (or schedule), pause, resume, cancel, and resend the recipients whose outcome is unknown (each
 * of the last two only after a confirmation that says what it does). Each press is one action with its own Idempotency-Key,
 * reused if the operator presses again after a failure; the server's refusal (no recipients, template
 * not approved, channel not ready) shows as a toast in its own words.
 */
export function BroadcastActions({ projectId, broadcast }: { projectId: string; broadcast: Broadcast }) {
  const act = useBroadcastAction(projectId, broadcast.id);
  const keys = useActionKeys();
  const toast = useToast();
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const [confirmingResend, setConfirmingResend] = useState(false);
  const unknown = unknownOutcomeWords(broadcast.stats.outcome_unknown, broadcast.status);
  const [running, setRunning] = useState<string | null>(null);
  const allowed = availableActions(broadcast);
  const scheduled = Boolean(broadcast.send_at);

  const run = async (action: BroadcastAction, label: string) => {
    setRunning(label);
    try {
      await act.mutateAsync({ action, idempotencyKey: keys.keyFor(action, {}) });
      keys.settled(action);
      toast.show({ title: label === "resend-unknown" ? unknown.done : (DONE[label] ?? "Done"), tone: "success" });
    } catch (error) {
      toast.show({ title: error instanceof Error ? error.message : "That didn't work.", tone: "danger" });
      throw error;
    } finally {
      setRunning(null);
    }
  };
  const press = (action: BroadcastAction, label: string) => () => void run(action, label).catch(() => {});

  return (
    <div className="flex flex-wrap gap-2">
      {allowed.send && (
        <Button variant="primary" loading={running === "send" || running === "schedule"} onClick={press("send", scheduled ? "schedule" : "send")}>
          {allowed.sendLabel}
        </Button>
      )}
      {allowed.resume && (
        <Button variant="primary" loading={running === "resume"} onClick={press("send", "resume")}>
          Resume
        </Button>
      )}
      {allowed.pause && (
        <Button loading={running === "pause"} onClick={press("pause", "pause")}>
          Pause
        </Button>
      )}
      {allowed.cancel && (
        <Button variant="danger" onClick={() => setConfirmingCancel(true)}>
          Cancel broadcast
        </Button>
      )}
      {allowed.resendUnknown && (
        <Button loading={running === "resend-unknown"} onClick={() => setConfirmingResend(true)} data-testid="resend-unknown">
          {unknown.button}
        </Button>
      )}
      <ConfirmDialog
        open={confirmingResend}
        onClose={() => setConfirmingResend(false)}
        title={unknown.title}
        description={unknown.confirmation}
        confirmLabel={unknown.confirmLabel}
        cancelLabel="Don't resend"
        tone="primary"
        onConfirm={() => run("resend-unknown", "resend-unknown")}
      />
      <ConfirmDialog
        open={confirmingCancel}
        onClose={() => setConfirmingCancel(false)}
        title={`Cancel ${broadcast.name}?`}
        description="Recipients not sent yet are skipped and it can't be sent again. Messages already sent stay sent."
        confirmLabel="Cancel broadcast"
        cancelLabel="Keep it"
        onConfirm={() => run("cancel", "cancel")}
      />
    </div>
  );
}
