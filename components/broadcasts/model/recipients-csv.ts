import Papa from "papaparse";
import type { BroadcastRecipientInput } from "@/lib/client/broadcasts";

/**
 * Turning what the operator uploads or pastes into POST /broadcasts/{id}/recipients bodies
 * (docs/spec/decisions.md "Broadcasts"). Every recipient keeps the line it came from, so an error the
 * server reports by its index in a chunk can be shown against the operator's own file.
 */

/** One recipient and the line of the file (1 = the header row) or of the pasted text it came from. */
export interface SourcedRecipient {
  line: number;
  recipient: BroadcastRecipientInput;
}

export interface LineError {
  line: number;
  message: string;
}

export interface ParsedRecipients {
  recipients: SourcedRecipient[];
  errors: LineError[];
  /** The column that says who (to, phone, contact_id), as written in the header; null when none. */
  idColumn: string | null;
  /** The other columns: each becomes a key of `parameters` (a template variable such as "1" or "first_name"). */
  parameterColumns: string[];
}

const PHONE_COLUMNS = ["to", "phone", "phone_number"];
const CONTACT_COLUMN = "contact_id";

/** Spaces, dashes, dots and brackets people type inside numbers; E.164 is the digits with an optional "+". */
export function normalizePhone(raw: string): string | null {
  const compact = raw.trim().replace(/[\s\-.()]/g, "");
  const digits = compact.startsWith("00") ? `+${compact.slice(2)}` : compact;
  return /^\+?[1-9]\d{6,14}$/.test(digits) ? digits : null;
}

const BAD_PHONE = "Not a phone number: write it in international format, e.g. +14155550123.";

function findIdColumn(header: string[]): { index: number; kind: "to" | "contact_id" } | null {
  const names = header.map((name) => name.trim().toLowerCase());
  const phone = names.findIndex((name) => PHONE_COLUMNS.includes(name));
  if (phone >= 0) return { index: phone, kind: "to" };
  const contact = names.indexOf(CONTACT_COLUMN);
  return contact >= 0 ? { index: contact, kind: "contact_id" } : null;
}

function rowRecipient(
  cells: string[],
  id: { index: number; kind: "to" | "contact_id" },
  parameterIndexes: Array<[number, string]>,
): BroadcastRecipientInput | string {
  const who = (cells[id.index] ?? "").trim();
  if (!who) return id.kind === "to" ? "No phone number in this row." : "No contact_id in this row.";
  const parameters: Record<string, string> = {};
  for (const [index, name] of parameterIndexes) {
    const value = (cells[index] ?? "").trim();
    if (value) parameters[name] = value;
  }
  const extra = Object.keys(parameters).length > 0 ? { parameters } : {};
  if (id.kind === "contact_id") return { contact_id: who, ...extra };
  const to = normalizePhone(who);
  return to ? { to, ...extra } : BAD_PHONE;
}

/**
 * A CSV with a header row: a `to` / `phone` (or `contact_id`) column says who, every other named
 * column becomes a `parameters` key; empty cells are left out. Line numbers are the row numbers a
 * spreadsheet shows (the header is 1; blank rows count but are skipped).
 */
export function parseRecipientsCsv(text: string): ParsedRecipients {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { header: false, skipEmptyLines: false });
  const rows = parsed.data;
  const header = (rows[0] ?? []).map((name) => name.trim());
  const id = findIdColumn(header);
  if (!id) {
    return {
      recipients: [],
      errors: [{ line: 1, message: "The first row must name the columns, one of them to, phone or contact_id." }],
      idColumn: null,
      parameterColumns: [],
    };
  }
  const parameterIndexes = header.flatMap((name, index): Array<[number, string]> => (index !== id.index && name ? [[index, name]] : []));
  const recipients: SourcedRecipient[] = [];
  const errors: LineError[] = [];
  rows.slice(1).forEach((cells, offset) => {
    const line = offset + 2;
    if (cells.every((cell) => cell.trim() === "")) return;
    const result = rowRecipient(cells, id, parameterIndexes);
    if (typeof result === "string") errors.push({ line, message: result });
    else recipients.push({ line, recipient: result });
  });
  return { recipients, errors, idColumn: header[id.index] ?? null, parameterColumns: parameterIndexes.map(([, name]) => name) };
}

/** Numbers pasted one per line (or separated by commas or semicolons); the line is the pasted line. */
export function parsePastedNumbers(text: string): ParsedRecipients {
  const recipients: SourcedRecipient[] = [];
  const errors: LineError[] = [];
  text.split(/\r?\n/).forEach((content, offset) => {
    for (const entry of content.split(/[,;]/)) {
      if (!entry.trim()) continue;
      const to = normalizePhone(entry);
      if (to) recipients.push({ line: offset + 1, recipient: { to } });
      else errors.push({ line: offset + 1, message: `${entry.trim()}: ${BAD_PHONE}` });
    }
  });
  return { recipients, errors, idColumn: "to", parameterColumns: [] };
}

/** Consecutive slices of at most `size`, in order: one POST each. */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/** The server's `{index, message}` for one chunk, back on the operator's lines. */
export function errorsOnLines(chunk: readonly SourcedRecipient[], errors: ReadonlyArray<{ index: number; message: string }>): LineError[] {
  return errors.map(({ index, message }) => ({ line: chunk[index]?.line ?? 0, message }));
}
