"use client";

import Link from "next/link";
import { cn } from "@/components/ui/cn";
import type { SavedReply } from "@/lib/client/saved-replies";

export interface SavedReplyPickerProps {
  id: string;
  replies: SavedReply[] | undefined;
  loading: boolean;
  active: number;
  onPick: (reply: SavedReply) => void;
  onHover: (index: number) => void;
  manageHref: string;
}

export const optionId = (listId: string, index: number) => `${listId}-option-${index}`;

/**
 * The list that opens over the composer when the text starts with "/": the message box keeps focus
 * and points at the active option (aria-activedescendant); ↑/↓ move, Enter or Tab inserts, Escape closes.
 */
export function SavedReplyPicker({ id, replies, loading, active, onPick, onHover, manageHref }: SavedReplyPickerProps) {
  return (
    <div className="absolute right-0 bottom-full left-0 z-20 mb-1 overflow-hidden rounded-lg bg-white shadow-lg ring-1 ring-slate-200">
      <p className="border-b border-slate-100 px-3 py-1.5 text-[11px] text-slate-500">Saved replies · ↑↓ to choose, Enter to insert, Esc to close</p>
      {loading ? (
        <p className="px-3 py-3 text-sm text-slate-500">Loading saved replies…</p>
      ) : !replies || replies.length === 0 ? (
        <p className="px-3 py-3 text-sm text-slate-600">
          No saved reply matches.{" "}
          <Link href={manageHref} className="font-medium text-indigo-700 underline-offset-2 hover:underline">
            Manage saved replies
          </Link>
        </p>
      ) : (
        <ul id={id} role="listbox" aria-label="Saved replies" className="max-h-56 overflow-y-auto py-1">
          {replies.map((reply, index) => (
            <li
              key={reply.id}
              id={optionId(id, index)}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => {
                // Keep the focus in the message box while clicking an option.
                event.preventDefault();
                onPick(reply);
              }}
              onMouseEnter={() => onHover(index)}
              className={cn("cursor-pointer px-3 py-1.5", index === active ? "bg-indigo-50" : "hover:bg-slate-50")}
            >
              <span className="flex items-baseline gap-2">
                <span className="font-mono text-xs text-indigo-700">/{reply.shortcut}</span>
                <span className="truncate text-sm font-medium text-slate-900">{reply.title}</span>
              </span>
              <span className="block truncate text-xs text-slate-500">{reply.body}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
