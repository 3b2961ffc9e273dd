"use client";

import { useState } from "react";
import { Button, ConfirmDialog, FormError, useToast } from "@/components/ui";
import { useBroadcastAction, useRefreshBroadcast, type Broadcast, type BroadcastAction } from "@/lib/client/broadcasts";
import { actionErrorText, NO_RECIPIENTS_REASON, resumeConfirmation, sendConfirmation } from "./model/send-words";
import { availableActions, unknownOutcomeWords } from "./model/vocabulary";
import { useActionKeys } from "./use-action-keys";

const DONE: Record<string, string> = {
  send: "Sending started",
  schedule: "Broadcast scheduled",
  resume: "Sending resumed",
  pause: "Broadcast paused",
  cancel: "Broadcast cancelled",
};

type Confirming = "send" | "resume" | "cancel" | "resend-unknown" | null;

const whenFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/**
 * Send (or schedule), pause, resume, cancel, and resend the recipients whose outcome is unknown. Every
 * action that puts messages on the wire, or stops them, first says exactly what it will do (template,
 * how many, which channel); Pause alone goes at once, since stopping is what a hurried operator needs.
 * Each press is one action with its own Idempotency-Key, reused if the operator presses again after a
 * failure. A refusal shows in the dialog (or under the buttons, for Pause) as a sentence with a next
 * step (model/send-words.ts), never as a toast that fades.
 */
export function BroadcastActions({ projectId, broadcast, channelName }: { projectId: string; broadcast: Broadcast; channelName: string }) {
  const act = useBroadcastAction(projectId, broadcast.id);
  const refresh = useRefreshBroadcast(projectId, broadcast.id);
  const keys = useActionKeys();
  const toast = useToast();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [running, setRunning] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const unknown = unknownOutcomeWords(broadcast.stats.outcome_unknown, broadcast.status);
  const allowed = availableActions(broadcast);
  const templateName = broadcast.template.name;
  const empty = broadcast.stats.total === 0;
  const send = sendConfirmation({
    templateName,
    count: broadcast.stats.total,
    channelName,
    scheduledFor: broadcast.send_at ? whenFormat.format(new Date(broadcast.send_at)) : null,
  });
  const resume = resumeConfirmation({ templateName, count: broadcast.stats.pending + broadcast.stats.queued, channelName });

  const run = async (action: BroadcastAction, label: string) => {
    setRunning(label);
    setFailure(null);
    try {
      await act.mutateAsync({ action, idempotencyKey: keys.keyFor(action, {}) });
      keys.settled(action);
      toast.show({ title: label === "resend-unknown" ? unknown.done : (DONE[label] ?? "Done"), tone: "success" });
    } catch (error) {
      // The refusal may mean the broadcast moved on (another operator, the sender): show where it is now.
      refresh();
      throw new Error(actionErrorText(error, { templateName, channelName }), { cause: error });
    } finally {
      setRunning(null);
    }
  };
  const pause = () => void run("pause", "pause").catch((error: Error) => setFailure(error.message));

  return (
    <div className="flex flex-col items-end gap-2">
      <div className="flex flex-wrap justify-end gap-2">
        {allowed.send && (
          <Button
            variant="primary"
            disabled={empty}
            aria-describedby={empty ? "broadcast-send-blocked" : undefined}
            loading={running === "send" || running === "schedule"}
            onClick={() => setConfirming("send")}
          >
            {allowed.sendLabel}
          </Button>
        )}
        {allowed.resume && (
          <Button variant="primary" loading={running === "resume"} onClick={() => setConfirming("resume")}>
            Resume
          </Button>
        )}
        {allowed.pause && (
          <Button loading={running === "pause"} onClick={pause}>
            Pause
          </Button>
        )}
        {allowed.cancel && (
          <Button variant="danger" onClick={() => setConfirming("cancel")}>
            Cancel broadcast
          </Button>
        )}
        {allowed.resendUnknown && (
          <Button loading={running === "resend-unknown"} onClick={() => setConfirming("resend-unknown")} data-testid="resend-unknown">
            {unknown.button}
          </Button>
        )}
      </div>
      {allowed.send && empty && (
        <p id="broadcast-send-blocked" data-testid="broadcast-send-blocked" className="max-w-xs text-right text-xs text-slate-600">
          {NO_RECIPIENTS_REASON}
        </p>
      )}
      <FormError className="max-w-sm">{failure}</FormError>
      <ConfirmDialog
        open={confirming === "send"}
        onClose={() => setConfirming(null)}
        title={send.title}
        description={send.description}
        confirmLabel={send.confirmLabel}
        cancelLabel="Don't send"
        tone="primary"
        onConfirm={() => run("send", broadcast.send_at ? "schedule" : "send")}
      />
      <ConfirmDialog
        open={confirming === "resume"}
        onClose={() => setConfirming(null)}
        title={resume.title}
        description={resume.description}
        confirmLabel={resume.confirmLabel}
        cancelLabel="Keep it paused"
        tone="primary"
        onConfirm={() => run("send", "resume")}
      />
      <ConfirmDialog
        open={confirming === "resend-unknown"}
        onClose={() => setConfirming(null)}
        title={unknown.title}
        description={unknown.confirmation}
        confirmLabel={unknown.confirmLabel}
        cancelLabel="Don't resend"
        tone="primary"
        onConfirm={() => run("resend-unknown", "resend-unknown")}
      />
      <ConfirmDialog
        open={confirming === "cancel"}
        onClose={() => setConfirming(null)}
        title={`Cancel ${broadcast.name}?`}
        description="Recipients not sent yet are skipped and it can't be sent again. Messages already sent stay sent."
        confirmLabel="Cancel broadcast"
        cancelLabel="Keep it"
        onConfirm={() => run("cancel", "cancel")}
      />
    </div>
  );
}
