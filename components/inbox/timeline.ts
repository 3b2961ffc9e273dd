import type { Message } from "@/lib/client/inbox";
import type { Note } from "@/lib/client/inbox-team";

/** One entry of the thread: a message, or a private note placed among them by its time. */
export type TimelineItem = { kind: "message"; at: string; message: Message } | { kind: "note"; at: string; note: Note };

/**
 * Messages (oldest first) and notes merged by time. A note written while older messages are not
 * loaded yet would sit above them; it waits until its place is loaded (only notes newer than the
 * oldest loaded message show, unless everything is loaded).
 */
export function threadTimeline(messages: readonly Message[], notes: readonly Note[], allLoaded: boolean): TimelineItem[] {
  const oldest = messages[0]?.timestamp;
  const shownNotes = allLoaded || !oldest ? notes : notes.filter((note) => Date.parse(note.created_at) >= Date.parse(oldest));
  const items: TimelineItem[] = [
    ...messages.map((message) => ({ kind: "message" as const, at: message.timestamp, message })),
    ...shownNotes.map((note) => ({ kind: "note" as const, at: note.created_at, note })),
  ];
  // Stable: a message and a note at the same millisecond keep messages first.
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => Date.parse(a.item.at) - Date.parse(b.item.at) || a.index - b.index)
    .map(({ item }) => item);
}
