"use client";

import { Fragment, useCallback, useLayoutEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ChevronDownIcon } from "@/components/ui/icons";
import { useStickToBottom } from "@/components/ui/use-stick-to-bottom";
import { formatDay } from "./format";
import { MessageBubble } from "./message-bubble";
import { NoteBubble } from "./note-bubble";
import { PendingBubble } from "./pending-bubble";
import type { PendingSend } from "./pending-send";
import type { TimelineItem } from "./timeline";

// Within this many pixels of the bottom counts as "at the bottom" (keeps following new messages).
const STICKY_PX = 80;

export interface MessageLogProps {
  /** Messages and private notes, oldest first. */
  items: TimelineItem[];
  pending: PendingSend[];
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  onRetry: (key: string) => void;
  onDiscard: (key: string) => void;
  label: string;
}

/**
 * The thread, oldest at the top. It follows new messages while the operator is at the bottom; once
 * they scroll up it stays put and offers a "new messages" jump instead.
 */
export function MessageLog({ items, pending, hasOlder, loadingOlder, onLoadOlder, onRetry, onDiscard, label }: MessageLogProps) {
  const { scroller, atBottom, onScroll: measureBottom } = useStickToBottom<HTMLDivElement>(STICKY_PX);
  const [unseenBelow, setUnseenBelow] = useState(false);
  // Keeps the view steady when older messages are prepended above it.
  const heightBeforeOlder = useRef<number | null>(null);

  const last = items[items.length - 1];
  const lastId = last ? itemId(last) : undefined;
  const lastKey = `${lastId ?? ""}|${last?.kind === "message" ? last.message.status : ""}|${pending.length}|${pending.map((p) => p.state).join()}`;
  const firstId = items[0] ? itemId(items[0]) : undefined;

  const scrollToBottom = useCallback(
    (smooth: boolean) => {
      const element = scroller.current;
      if (!element) return;
      element.scrollTo({ top: element.scrollHeight, behavior: smooth ? "smooth" : "auto" });
      atBottom.current = true;
      setUnseenBelow(false);
    },
    [scroller, atBottom],
  );

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    if (heightBeforeOlder.current !== null) {
      element.scrollTop += element.scrollHeight - heightBeforeOlder.current;
      heightBeforeOlder.current = null;
    }
  }, [firstId, scroller]);

  const previousLastId = useRef(lastId);
  useLayoutEffect(() => {
    if (atBottom.current) scrollToBottom(false);
    else if (lastId !== previousLastId.current) setUnseenBelow(true);
    previousLastId.current = lastId;
  }, [lastKey, lastId, scrollToBottom, atBottom]);

  const onScroll = () => {
    if (measureBottom()) setUnseenBelow(false);
  };

  const loadOlder = () => {
    heightBeforeOlder.current = scroller.current?.scrollHeight ?? null;
    onLoadOlder();
  };

  return (
    <div className="relative min-h-0 flex-1">
      {/* The log is the scrolling box, focusable so the keyboard can scroll it; its <ol> stays a plain list. */}
      <div
        ref={scroller}
        onScroll={onScroll}
        role="log"
        aria-label={label}
        tabIndex={0}
        className="h-full overflow-y-auto bg-slate-50 px-3 py-4 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-600 sm:px-5"
      >
        {hasOlder && (
          <div className="mb-4 flex justify-center">
            <Button size="sm" onClick={loadOlder} loading={loadingOlder}>
              Load older messages
            </Button>
          </div>
        )}
        <ol className="space-y-3">
          {items.map((item, index) => {
            const previous = items[index - 1];
            const day = formatDay(item.at);
            const newDay = !previous || formatDay(previous.at) !== day;
            return (
              <Fragment key={itemId(item)}>
                {newDay && (
                  <li aria-hidden="true" className="flex items-center gap-3 py-1 text-[11px] font-medium text-slate-500">
                    <span className="h-px flex-1 bg-slate-200" />
                    {day}
                    <span className="h-px flex-1 bg-slate-200" />
                  </li>
                )}
                {item.kind === "message" ? <MessageBubble message={item.message} /> : <NoteBubble note={item.note} />}
              </Fragment>
            );
          })}
          {pending.map((item) => (
            <PendingBubble key={item.key} pending={item} onRetry={() => onRetry(item.key)} onDiscard={() => onDiscard(item.key)} />
          ))}
        </ol>
      </div>
      {unseenBelow && (
        <Button
          size="sm"
          variant="primary"
          className="absolute bottom-3 left-1/2 -translate-x-1/2 shadow-md"
          icon={<ChevronDownIcon />}
          onClick={() => scrollToBottom(true)}
        >
          New messages
        </Button>
      )}
    </div>
  );
}

const itemId = (item: TimelineItem) => (item.kind === "message" ? item.message.id : item.note.id);
