/**
 * What the dashboard's inbox stream carries (README "Inbox: live updates", docs/api-decisions.md):
 * which conversation changed and how, never its data. The browser refetches what it shows.
 */
const INBOX_EVENT_TYPES = ["message.created", "message.updated", "conversation.updated", "note.created"] as const;
type InboxEventType = (typeof INBOX_EVENT_TYPES)[number];

export interface InboxEvent {
  type: InboxEventType;
  conversation_id: string;
  /** The message's (or note's) id, when the event is about one. */
  id?: string;
}

const TYPES: ReadonlySet<string> = new Set(INBOX_EVENT_TYPES);

/** One project's bus channel: a process listens to a project only while one of its streams follows it. */
export function inboxChannel(projectId: string): string {
  return `inbox.${projectId}`;
}

/** The bus payload of a batch: a JSON array of events (one NOTIFY / PUBLISH for many changes). */
export function encodeBatch(events: readonly InboxEvent[]): string {
  return JSON.stringify(
    events.map((e) =>
      e.id === undefined ? { type: e.type, conversation_id: e.conversation_id } : { type: e.type, conversation_id: e.conversation_id, id: e.id },
    ),
  );
}

/** A batch as published; anything malformed (another release's shape, a stray publisher) is skipped. */
export function decodeBatch(payload: string): InboxEvent[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const out: InboxEvent[] = [];
  for (const item of parsed as unknown[]) {
    if (typeof item !== "object" || item === null) continue;
    const { type, conversation_id, id } = item as Record<string, unknown>;
    if (typeof type !== "string" || !TYPES.has(type) || typeof conversation_id !== "string") continue;
    out.push(typeof id === "string" ? { type: type as InboxEventType, conversation_id, id } : { type: type as InboxEventType, conversation_id });
  }
  return out;
}

/**
 * Splits a project's events into payloads under `budget` bytes each (the bus takes at most 7999), in
 * order. Ids are ASCII, so a string's length is its size in bytes.
 */
export function chunkBatches(events: readonly InboxEvent[], budget: number): { payload: string; count: number }[] {
  const chunks: { payload: string; count: number }[] = [];
  let current: InboxEvent[] = [];
  let size = 2;
  for (const event of events) {
    // The event's JSON plus its comma.
    const one = encodeBatch([event]).length - 1;
    if (current.length && size + one > budget) {
      chunks.push({ payload: encodeBatch(current), count: current.length });
      current = [];
      size = 2;
    }
    current.push(event);
    size += one;
  }
  if (current.length) chunks.push({ payload: encodeBatch(current), count: current.length });
  return chunks;
}
