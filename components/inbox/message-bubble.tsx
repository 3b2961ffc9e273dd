"use client";

import Link from "next/link";
import { useParams } from "next/navigation";
import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { AlertIcon } from "@/components/ui/icons";
import type { Message, MessageFailure } from "@/lib/client/inbox";
import { formatClock } from "./format";
import { MessageContent } from "./message-content";
import { MessageStatus } from "./message-status";

/** One message of the thread: customer messages on the left, the business's on the right. */
export function MessageBubble({ message }: { message: Message }) {
  const outbound = message.direction === "outbound";
  const failed = message.status === "failed";
  const { projectId } = useParams<{ projectId: string }>();
  return (
    <BubbleFrame
      outbound={outbound}
      failed={failed}
      label={`${outbound ? "Sent" : "Received"} ${message.type} message`}
      messageId={message.id}
      meta={
        <>
          <time dateTime={message.timestamp} title={new Date(message.timestamp).toLocaleString()}>
            {formatClock(message.timestamp)}
          </time>
          {outbound && <MessageStatus status={message.status} />}
          {!outbound && projectId && (
            // Why this customer message did (not) start an automation (issue 34): a link, not a redesign of the thread.
            <Link
              href={`/projects/${encodeURIComponent(projectId)}/automations/messages/${encodeURIComponent(message.id)}`}
              className="rounded-sm text-slate-500 underline-offset-2 hover:text-indigo-600 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              Why (no) automation?
            </Link>
          )}
        </>
      }
      footer={failed ? <FailureNote failure={message.failure} /> : null}
    >
      <MessageContent message={message} tone={outbound ? "outbound" : "inbound"} />
    </BubbleFrame>
  );
}

export function BubbleFrame({
  outbound,
  failed,
  label,
  messageId,
  meta,
  footer,
  children,
}: {
  outbound: boolean;
  failed?: boolean;
  label: string;
  messageId?: string;
  meta: ReactNode;
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <li
      aria-label={label}
      data-message-id={messageId}
      data-direction={outbound ? "outbound" : "inbound"}
      className={cn("flex flex-col", outbound ? "items-end" : "items-start")}
    >
      <div
        className={cn(
          "max-w-[85%] rounded-2xl px-3 py-2 shadow-xs sm:max-w-[70%]",
          outbound ? "rounded-br-md text-white" : "rounded-bl-md bg-white text-slate-900 ring-1 ring-slate-200",
          outbound && (failed ? "bg-indigo-600/75 ring-2 ring-red-500 ring-offset-1" : "bg-indigo-600"),
        )}
      >
        {children}
      </div>
      <div className="mt-1 flex items-center gap-2 px-1 text-[11px] text-slate-500 tabular-nums">{meta}</div>
      {footer}
    </li>
  );
}

/** Why the provider (or svc) refused the message, in red where it cannot be missed. */
function FailureNote({ failure }: { failure: MessageFailure | null }) {
  const code = failure?.code !== null && failure?.code !== undefined ? String(failure.code) : null;
  return (
    <div
      role="note"
      className="mt-1.5 flex max-w-[85%] items-start gap-2 rounded-md bg-red-50 px-2.5 py-2 text-[13px] text-red-700 ring-1 ring-red-600/20 sm:max-w-[70%]"
    >
      <AlertIcon size={14} className="mt-0.5 shrink-0" />
      <div className="min-w-0">
        <p className="font-semibold">{failure?.summary ?? "Not delivered"}</p>
        {failure?.message && failure.message !== failure.summary && <p className="mt-0.5 break-words">{failure.message}</p>}
        {(code || failure?.title) && (
          <p className="mt-0.5 text-xs text-red-600/90">
            {failure?.provider === "service" ? "svc" : "Provider"}
            {code && <> error {code}</>}
            {failure?.title && <> · {failure.title}</>}
          </p>
        )}
      </div>
    </div>
  );
}
