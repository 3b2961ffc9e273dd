"use client";

import { useId, useState, type KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { NOTE_MAX, useAddNote } from "@/lib/client/inbox-team";

/** A private note for teammates: saved on the conversation, never sent to the customer. */
export function NoteForm({ projectId, conversationId }: { projectId: string; conversationId: string }) {
  const [text, setText] = useState("");
  const add = useAddNote(projectId);
  const hintId = useId();
  const tooLong = text.length > NOTE_MAX;
  const canSave = text.trim().length > 0 && !tooLong && !add.isPending;

  const save = () => {
    if (!canSave) return;
    add.mutate({ conversationId, body: text.trim() }, { onSuccess: () => setText("") });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey || !event.shiftKey)) {
      event.preventDefault();
      save();
    }
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
      className="flex items-end gap-2"
    >
      <div className="min-w-0 flex-1">
        <textarea
          aria-label="Private note"
          aria-describedby={hintId}
          aria-invalid={tooLong || undefined}
          value={text}
          rows={Math.min(6, Math.max(2, text.split("\n").length))}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Write a note for your teammates…"
          className="block max-h-40 w-full resize-none rounded-lg border-0 bg-amber-50 px-3 py-2 text-sm leading-5 text-slate-900 shadow-xs ring-1 ring-amber-300 ring-inset placeholder:text-amber-800/60 focus:ring-2 focus:ring-amber-500 focus:outline-none"
        />
        <p id={hintId} className={cn("mt-1 text-[11px]", tooLong || add.error ? "font-medium text-red-600" : "text-amber-900")}>
          {tooLong
            ? `At most ${NOTE_MAX} characters (${text.length} now).`
            : add.error
              ? `Note not saved: ${add.error.message}`
              : "Only your teammates see notes; the customer never does. Enter or Ctrl+Enter to save."}
        </p>
      </div>
      <Button type="submit" variant="primary" disabled={!canSave} loading={add.isPending} className="mb-5">
        Add note
      </Button>
    </form>
  );
}
