import type { Note } from "@/lib/client/inbox-team";
import { formatClock } from "./format";

/** A private note in the thread: yellow, full width, labelled so nobody mistakes it for a sent message. */
export function NoteBubble({ note }: { note: Note }) {
  const author = note.author.name ?? (note.author.type === "api_key" ? "API key" : "A teammate");
  return (
    <li aria-label="Private note" data-note-id={note.id} className="flex justify-center">
      <div className="w-full max-w-[90%] rounded-lg bg-amber-50 px-3 py-2 ring-1 ring-amber-300">
        <p className="flex flex-wrap items-center gap-x-2 text-[11px] font-semibold tracking-wide text-amber-900 uppercase">
          <NoteGlyph />
          Private note, not sent to the customer
        </p>
        <p className="mt-1 text-sm leading-5 break-words whitespace-pre-wrap text-slate-900">{note.body}</p>
        <p className="mt-1 text-[11px] text-amber-900">
          {author} ·{" "}
          <time dateTime={note.created_at} title={new Date(note.created_at).toLocaleString()}>
            {formatClock(note.created_at)}
          </time>
        </p>
      </div>
    </li>
  );
}

function NoteGlyph() {
  return (
    <svg width="12" height="12" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" aria-hidden="true">
      <rect x="4" y="9" width="12" height="8" rx="1.5" />
      <path d="M7 9V6.5a3 3 0 0 1 6 0V9" />
    </svg>
  );
}
