"use client";

import { useId, useState, type KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import type { ComposedContent } from "@/lib/client/inbox";
import { MediaLinkForm } from "./media-link-form";
import { ReplyButtonsForm } from "./reply-buttons-form";

type Mode = "text" | "media" | "buttons";

const MODES: { value: Mode; label: string }[] = [
  { value: "text", label: "Text" },
  { value: "media", label: "Media link" },
  { value: "buttons", label: "Reply buttons" },
];

/**
 * The reply box: plain text (Enter sends, Shift+Enter adds a line), a media file by https link, or a
 * message with 1 to 3 reply buttons. Sending is optimistic: the thread shows the bubble at once and
 * the box clears; errors appear on that bubble.
 */
export function Composer({ onSend, disabled }: { onSend: (content: ComposedContent) => void; disabled: boolean }) {
  const [mode, setMode] = useState<Mode>("text");
  return (
    <div className="space-y-2">
      <div role="group" aria-label="Message kind" className="flex gap-1">
        {MODES.map((item) => (
          <button
            key={item.value}
            type="button"
            aria-pressed={mode === item.value}
            onClick={() => setMode(item.value)}
            className={cn(
              "h-7 rounded-md px-2.5 text-xs font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600",
              mode === item.value ? "bg-slate-900 text-white" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900",
            )}
          >
            {item.label}
          </button>
        ))}
      </div>
      {mode === "text" && <TextForm onSend={onSend} disabled={disabled} />}
      {mode === "media" && <MediaLinkForm onSend={onSend} disabled={disabled} />}
      {mode === "buttons" && <ReplyButtonsForm onSend={onSend} disabled={disabled} />}
    </div>
  );
}

const MAX_TEXT = 4096;

function TextForm({ onSend, disabled }: { onSend: (content: ComposedContent) => void; disabled: boolean }) {
  const [text, setText] = useState("");
  const hintId = useId();
  const trimmed = text.trim();
  const tooLong = text.length > MAX_TEXT;
  const canSend = !disabled && trimmed.length > 0 && !tooLong;

  const send = () => {
    if (!canSend) return;
    onSend({ text });
    setText("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // IME composition uses Enter to pick a candidate: that Enter must not send.
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  const rows = Math.min(6, Math.max(1, text.split("\n").length));
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
      className="flex items-end gap-2"
    >
      <div className="min-w-0 flex-1">
        <textarea
          aria-label="Message"
          aria-describedby={hintId}
          aria-invalid={tooLong || undefined}
          value={text}
          rows={rows}
          disabled={disabled}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Write a reply…"
          className="block max-h-40 w-full resize-none rounded-lg border-0 bg-white px-3 py-2 text-sm leading-5 text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none disabled:cursor-not-allowed disabled:bg-slate-50 aria-[invalid=true]:ring-red-400"
        />
        <p id={hintId} className={cn("mt-1 text-[11px]", tooLong ? "font-medium text-red-600" : "text-slate-500")}>
          {tooLong ? `At most ${MAX_TEXT} characters (${text.length} now).` : "Enter to send · Shift+Enter for a new line"}
        </p>
      </div>
      <Button type="submit" variant="primary" disabled={!canSend} className="mb-5">
        Send
      </Button>
    </form>
  );
}
