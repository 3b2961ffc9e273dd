"use client";

import { formatClock } from "@/components/inbox/format";
import { type BubbleProps, BusinessActions } from "./business-actions";
import { BusinessContent } from "./business-content";

/**
 * A message the business sent, as the customer's phone shows it. `body` is the provider request the
 * simulator received (PLATFORM_A Cloud API shape, or the Send API shape on PLATFORM_B/C). Reply
 * buttons, list rows and quick replies are tappable and answer with `onReply`; a Flow's button opens it with `flows.onOpen`.
 */
export function BusinessBubble({ message, onReply, disabled, flows }: BubbleProps) {
  return (
    <li aria-label="Message from the business" className="flex max-w-[85%] flex-col items-stretch gap-1 self-start">
      <div className="rounded-2xl rounded-bl-md bg-white px-3 py-2 text-[13px] leading-5 text-slate-900 shadow-xs ring-1 ring-slate-900/5">
        <BusinessContent message={message} />
        <p className="mt-0.5 text-right text-[10px] text-slate-500 tabular-nums">{formatClock(message.sent_at)}</p>
      </div>
      <BusinessActions message={message} onReply={onReply} disabled={disabled} flows={flows} />
    </li>
  );
}
