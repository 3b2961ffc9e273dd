"use client";

import Link from "next/link";
import { useLayoutEffect, useMemo, type ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { AlertIcon } from "@/components/ui/icons";
import { Spinner } from "@/components/ui/spinner";
import { useStickToBottom } from "@/components/ui/use-stick-to-bottom";
import type { Channel } from "@/lib/client/channels";
import type { BusinessMessage } from "@/lib/client/sandbox";
import { BusinessBubble } from "./business-bubble";
import type { FlowHandlers, ReplyChoice } from "./business-actions";
import type { SentItem } from "./customer-store";
import { PhoneComposer, type PhoneAction } from "./phone-composer";
import { SentBubble } from "./sent-bubble";

export interface PhoneProps {
  channel: Channel | null;
  from: string;
  businessMessages: BusinessMessage[] | undefined;
  sent: SentItem[];
  loading: boolean;
  /** Shown across the top of the screen (e.g. the number belongs to another project). */
  alert: ReactNode;
  conversationHref: string | null;
  canSend: boolean;
  onSend: (action: PhoneAction) => void;
  onReply: (choice: ReplyChoice) => void;
  /** Flow messages: which were submitted, and opening one. */
  flows: FlowHandlers;
  /** Drawn over the screen (an open Flow's sheet). */
  overlay?: ReactNode;
  emptyHint: ReactNode;
}

type Entry = { kind: "sent"; at: number; item: SentItem } | { kind: "business"; at: number; message: BusinessMessage };

/** A phone-shaped chat with the business: the customer's messages on the right, the business's on the left. */
export function Phone({
  channel,
  from,
  businessMessages,
  sent,
  loading,
  alert,
  conversationHref,
  canSend,
  onSend,
  onReply,
  flows,
  overlay,
  emptyHint,
}: PhoneProps) {
  const entries = useMemo(() => {
    const all: Entry[] = [
      ...sent.map((item) => ({ kind: "sent" as const, at: Date.parse(item.at), item })),
      ...(businessMessages ?? []).map((message) => ({ kind: "business" as const, at: Date.parse(message.sent_at), message })),
    ];
    return all.sort((a, b) => a.at - b.at);
  }, [sent, businessMessages]);

  const { scroller, atBottom, onScroll } = useStickToBottom<HTMLDivElement>(60);
  const lastKey = `${entries.length}|${sent.map((item) => item.state).join()}`;
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [lastKey, scroller, atBottom]);

  const businessName = channel?.display_name ?? "Business";
  return (
    <div className="mx-auto w-full max-w-[22rem] rounded-[2.75rem] bg-slate-900 p-2.5 shadow-xl ring-1 ring-slate-900/40">
      <section
        aria-label="Sandbox phone"
        className="relative flex h-[40rem] max-h-[calc(100dvh-8rem)] min-h-[30rem] flex-col overflow-hidden rounded-[2.25rem] bg-slate-100"
      >
        <div aria-hidden="true" className="absolute top-2 left-1/2 z-10 h-5 w-24 -translate-x-1/2 rounded-full bg-slate-900" />
        <header className="flex items-center gap-2.5 bg-white px-4 pt-9 pb-2.5 shadow-xs">
          <span aria-hidden="true" className="flex size-8 items-center justify-center rounded-full bg-indigo-600 text-xs font-semibold text-white">
            {businessName.slice(0, 1).toUpperCase()}
          </span>
          <div className="min-w-0 flex-1">
            <p className="truncate text-[13px] font-semibold text-slate-900">{businessName}</p>
            <p className="truncate text-[11px] text-slate-500">{channel?.phone_number ?? channel?.id ?? "Pick a channel"}</p>
          </div>
          {conversationHref && (
            <Link
              href={conversationHref}
              className="shrink-0 rounded-md px-2 py-1 text-[11px] font-medium text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              Open in inbox
            </Link>
          )}
        </header>
        <p className="border-b border-slate-200/70 bg-slate-50 px-3 py-1 text-center text-[11px] text-slate-500">
          you are <span className="font-mono text-slate-700">{from || "…"}</span>
        </p>
        {alert}
        <div ref={scroller} onScroll={onScroll} className="min-h-0 flex-1 overflow-y-auto px-3 py-3">
          {loading && entries.length === 0 ? (
            <div className="flex h-full items-center justify-center">
              <Spinner label="Loading the chat" />
            </div>
          ) : entries.length === 0 ? (
            <div className="flex h-full items-center justify-center px-4 text-center text-[13px] text-slate-600">{emptyHint}</div>
          ) : (
            <ol role="log" aria-label="Phone chat" className="flex flex-col gap-2">
              {entries.map((entry) =>
                entry.kind === "sent" ? (
                  <SentBubble key={entry.item.localId} item={entry.item} />
                ) : (
                  <BusinessBubble key={entry.message.id} message={entry.message} onReply={onReply} disabled={!canSend} flows={flows} />
                ),
              )}
            </ol>
          )}
        </div>
        <PhoneComposer onSend={onSend} disabled={!canSend} />
        <div aria-hidden="true" className="flex justify-center bg-slate-50 pb-2">
          <span className="h-1 w-28 rounded-full bg-slate-300" />
        </div>
        {overlay}
      </section>
    </div>
  );
}

/** A strip under the phone's header: problems and next steps the customer should see. */
export function PhoneAlert({ tone, children }: { tone: "danger" | "warning"; children: ReactNode }) {
  return (
    <div
      role="alert"
      className={cn("flex items-start gap-2 px-3 py-2 text-[12px] leading-4", tone === "danger" ? "bg-red-50 text-red-800" : "bg-amber-50 text-amber-900")}
    >
      <AlertIcon size={14} className="mt-px shrink-0" />
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}
