"use client";

import { Button } from "@/components/ui/button";
import { AlertIcon } from "@/components/ui/icons";
import { isApiError } from "@/lib/client/api";
import { BubbleFrame } from "./message-bubble";
import { MessageStatus } from "./message-status";
import type { PendingSend } from "./pending-send";
import { sendNextStep } from "./send-failure";

/** The optimistic bubble of a message being sent; on failure it shows the server's words and offers a retry. */
export function PendingBubble({ pending, onRetry, onDiscard }: { pending: PendingSend; onRetry: () => void; onDiscard: () => void }) {
  const failed = pending.state === "failed";
  return (
    <BubbleFrame
      outbound
      failed={failed}
      label={failed ? "Message not sent" : "Sending message"}
      meta={<MessageStatus status={failed ? "failed" : pending.state === "sending" ? "sending" : "queued"} />}
      footer={failed ? <SendError error={pending.error} onRetry={onRetry} onDiscard={onDiscard} /> : null}
    >
      <PendingContent request={pending.request} />
    </BubbleFrame>
  );
}

function PendingContent({ request }: { request: PendingSend["request"] }) {
  if ("text" in request) return <p className="text-sm leading-5 break-words whitespace-pre-wrap">{request.text}</p>;
  if ("media" in request) {
    return (
      <div className="space-y-1 text-sm leading-5">
        <p className="text-xs font-semibold tracking-wide text-indigo-100 uppercase">{request.media.type} link</p>
        <p className="font-mono text-xs break-all text-indigo-50">{request.media.link}</p>
        {request.media.caption && <p className="break-words whitespace-pre-wrap">{request.media.caption}</p>}
      </div>
    );
  }
  if ("template" in request) {
    return <p className="text-sm leading-5">Template message</p>;
  }
  return (
    <div>
      <p className="text-sm leading-5 break-words whitespace-pre-wrap">{request.interactive.body}</p>
      <ul aria-label="Reply buttons" className="mt-2 space-y-1">
        {request.interactive.buttons.map((button) => (
          <li key={button.id} className="rounded-md bg-white/15 px-2 py-1 text-center text-[13px] font-medium ring-1 ring-white/25">
            {button.title}
          </li>
        ))}
      </ul>
    </div>
  );
}

const HINTS: Record<number, string> = {
  403: "Your role can't send messages in this project.",
  409: "The server refused this message in the conversation's current state.",
  412: "The channel isn't ready to send.",
  422: "This channel doesn't support that kind of message.",
};

function SendError({ error, onRetry, onDiscard }: { error: unknown; onRetry: () => void; onDiscard: () => void }) {
  const api = isApiError(error) ? error : null;
  const message = error instanceof Error ? error.message : "The message could not be sent.";
  const issues = api?.issues ? Object.entries(api.issues) : [];
  // A 4xx will be refused again as it is; a network error or 5xx is worth retrying (same key: no double send).
  const retryable = !api || api.status === 0 || api.status >= 500 || api.status === 429;
  return (
    <div
      role="alert"
      className="mt-1.5 flex max-w-[85%] items-start gap-2 rounded-md bg-red-50 px-2.5 py-2 text-[13px] text-red-700 ring-1 ring-red-600/20 sm:max-w-[70%]"
    >
      <AlertIcon size={14} className="mt-0.5 shrink-0" />
      <div className="min-w-0">
        <p className="font-semibold">Not sent{api && HINTS[api.status] ? `: ${HINTS[api.status]}` : ""}</p>
        <p className="mt-0.5 break-words">{message}</p>
        <p className="mt-1 break-words text-red-900" data-testid="send-next-step">
          <span className="font-semibold">Next step: </span>
          {sendNextStep(error)}
        </p>
        {issues.length > 0 && (
          <ul className="mt-1 list-disc pl-4">
            {issues.map(([field, messages]) => (
              <li key={field}>
                <span className="font-mono">{field || "body"}</span>: {messages.join(" ")}
              </li>
            ))}
          </ul>
        )}
        {api?.code && api.status !== 0 && <p className="mt-0.5 font-mono text-xs text-red-600/90">{api.code}</p>}
        <div className="mt-2 flex gap-2">
          {retryable && (
            <Button size="sm" onClick={onRetry}>
              Retry
            </Button>
          )}
          <Button size="sm" variant="ghost" onClick={onDiscard}>
            Discard
          </Button>
        </div>
      </div>
    </div>
  );
}
