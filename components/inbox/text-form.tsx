"use client";

import { useId, useMemo, useState, type KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { filterSavedReplies, useRenderSavedReply, useSavedReplies, type SavedReply } from "@/lib/client/saved-replies";
import { SavedReplyPicker, optionId } from "./saved-reply-picker";

const MAX_TEXT = 4096;
/** "/" then a shortcut being typed, at the very start of the box: the picker's filter. */
const SLASH = /^\/([^\s]*)$/;

export interface TextFormProps {
  projectId: string;
  conversationId: string;
  disabled: boolean;
  onSend: (text: string) => void;
  manageHref: string;
}

/**
 * The reply box: Enter or Ctrl/Cmd+Enter sends, Shift+Enter adds a line, and "/" at the start opens
 * the saved replies, whose text the server renders for this conversation before it is inserted.
 */
export function TextForm({ projectId, conversationId, disabled, onSend, manageHref }: TextFormProps) {
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [missing, setMissing] = useState<string[]>([]);
  const hintId = useId();
  const listId = useId();
  const slash = SLASH.exec(text);
  const pickerOpen = Boolean(slash) && dismissed !== text && !disabled;
  const replies = useSavedReplies(projectId, { enabled: !disabled });
  const render = useRenderSavedReply(projectId);
  const matches = useMemo(() => (slash && replies.data ? filterSavedReplies(replies.data, slash[1] ?? "") : []), [slash, replies.data]);
  const activeIndex = Math.min(active, Math.max(0, matches.length - 1));

  const trimmed = text.trim();
  const tooLong = text.length > MAX_TEXT;
  const canSend = !disabled && trimmed.length > 0 && !tooLong && !pickerOpen;

  const send = () => {
    if (!canSend) return;
    onSend(text);
    setText("");
    setMissing([]);
  };

  const pick = (reply: SavedReply) =>
    render.mutate(
      { id: reply.id, conversationId },
      {
        onSuccess: (rendered) => {
          setText(rendered.text);
          setMissing(rendered.missing);
        },
      },
    );

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // IME composition uses Enter to pick a candidate: that Enter must not send.
    if (event.nativeEvent.isComposing) return;
    if (pickerOpen && matches.length > 0) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        setActive((activeIndex + (event.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length);
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        pick(matches[activeIndex]!);
        return;
      }
    }
    if (pickerOpen && event.key === "Escape") {
      event.preventDefault();
      setDismissed(text);
      return;
    }
    if (event.key === "Enter" && (!event.shiftKey || event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      send();
    }
  };

  // Grows with the text (an inserted saved reply is often one long line), up to six rows.
  const rows = Math.min(6, Math.max(1, text.split("\n").length, Math.ceil(text.length / 70)));
  const hint = tooLong
    ? `At most ${MAX_TEXT} characters (${text.length} now).`
    : render.error
      ? `Couldn't insert the saved reply: ${render.error.message}`
      : missing.length > 0
        ? `No value for ${missing.join(", ")}: that part was left empty. Check the text before sending.`
        : "Enter or Ctrl+Enter sends · Shift+Enter new line · / saved replies";
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
      className="flex items-end gap-2"
    >
      <div className="relative min-w-0 flex-1">
        {pickerOpen && (
          <SavedReplyPicker
            id={listId}
            replies={matches}
            loading={replies.isPending || render.isPending}
            active={activeIndex}
            onPick={pick}
            onHover={setActive}
            manageHref={manageHref}
          />
        )}
        <textarea
          aria-label="Message"
          aria-describedby={hintId}
          aria-invalid={tooLong || undefined}
          aria-controls={pickerOpen && matches.length > 0 ? listId : undefined}
          aria-activedescendant={pickerOpen && matches.length > 0 ? optionId(listId, activeIndex) : undefined}
          value={text}
          rows={rows}
          disabled={disabled}
          onChange={(event) => {
            setText(event.target.value);
            setActive(0);
            if (missing.length) setMissing([]);
          }}
          onKeyDown={onKeyDown}
          placeholder="Write a reply…"
          className="block max-h-40 w-full resize-none rounded-lg border-0 bg-white px-3 py-2 text-sm leading-5 text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none disabled:cursor-not-allowed disabled:bg-slate-50 aria-[invalid=true]:ring-red-400"
        />
        <p
          id={hintId}
          className={cn("mt-1 text-[11px]", tooLong || render.error ? "font-medium text-red-600" : missing.length ? "text-amber-800" : "text-slate-500")}
        >
          {hint}
        </p>
      </div>
      <Button type="submit" variant="primary" disabled={!canSend} className="mb-5">
        Send
      </Button>
    </form>
  );
}
