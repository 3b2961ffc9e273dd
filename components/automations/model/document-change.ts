import type { ConfigDocument } from "@/lib/client/config";
import type { AutomationEntry } from "./draft";

/**
 * One source of truth (issue 34): the builder's change is shown as the project's exported config
 * document (GET /config) with this one automation changed, so `POST /config/validate` judges it with
 * the same rules as an apply and `POST /config/diff` shows the same diff the Config page shows. The
 * API writes it afterwards; both sides agree by contract (docs/api-decisions.md "Automations").
 */

export type AutomationChange =
  /** Create (`originalKey` null) or redefine the automation that had `originalKey`; `position` moves it. */
  | { kind: "upsert"; entry: AutomationEntry; originalKey: string | null; position?: number }
  | { kind: "delete"; key: string }
  | { kind: "move"; key: string; position: number }
  | { kind: "active"; key: string; active: boolean };

export interface ChangedDocument {
  document: ConfigDocument;
  /** Where the changed automation sits in the new document's `automations` (null once deleted). */
  index: number | null;
}

type Entry = Record<string, unknown> & { key?: unknown };

function automationsOf(document: ConfigDocument): Entry[] {
  const listed = document.automations;
  return Array.isArray(listed) ? listed.map((entry) => (entry && typeof entry === "object" ? { ...(entry as Entry) } : (entry as Entry))) : [];
}

const clamp = (value: number, max: number) => Math.max(0, Math.min(Math.trunc(value), max));

function place(entries: Entry[], entry: Entry, from: number | null, position: number | undefined): { entries: Entry[]; index: number } {
  const rest = from === null ? entries : entries.filter((_, i) => i !== from);
  const at = position === undefined ? (from ?? rest.length) : clamp(position, rest.length);
  rest.splice(at, 0, entry);
  return { entries: rest, index: at };
}

/** The document with the change made; the rest of it as exported, untouched. */
export function documentWithChange(document: ConfigDocument, change: AutomationChange): ChangedDocument {
  const entries = automationsOf(document);
  const key = change.kind === "upsert" ? change.originalKey : change.key;
  const found = key === null ? -1 : entries.findIndex((entry) => entry?.key === key);
  const from = found === -1 ? null : found;
  const done = (list: Entry[], index: number | null): ChangedDocument => ({ document: { ...document, automations: list }, index });

  switch (change.kind) {
    case "upsert": {
      const placed = place(entries, { ...change.entry }, from, change.position);
      return done(placed.entries, placed.index);
    }
    case "delete":
      return done(
        entries.filter((_, i) => i !== from),
        null,
      );
    case "move": {
      if (from === null) return done(entries, null);
      const placed = place(entries, entries[from]!, from, change.position);
      return done(placed.entries, placed.index);
    }
    case "active": {
      if (from === null) return done(entries, null);
      entries[from] = { ...entries[from]!, active: change.active };
      return done(entries, from);
    }
  }
}
