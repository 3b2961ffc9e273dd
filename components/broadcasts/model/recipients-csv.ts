import Papa from "papaparse";
import type { BroadcastRecipientInput } from "@/lib/client/broadcasts";
import { variableKeys, variablesSentence } from "@/lib/shared/broadcasts/parameters";
import { RECIPIENT_LIMITS, recipientNumber, recipientProblem, recipientWho, type RecipientProblem } from "@/lib/shared/broadcasts/recipients";
import type { TemplateShape } from "@/lib/shared/templates/types";

/**
 * Turning what the operator uploads or pastes into POST /broadcasts/{id}/recipients bodies
 * (docs/spec/decisions.md "Broadcasts"). Every row is judged before upload by the server's own rules
 * (lib/shared/broadcasts/recipients.ts: the number, the template's variables), so a row the server
 * would refuse is named here first, by its line and column, in the server's words. Every recipient
 * keeps the line it came from, so an error the server still reports by its index in a chunk (an
 * unknown contact) is shown against the operator's own file too.
 */

/** One recipient and the line of the file (1 = the header row) or of the pasted text it came from. */
export interface SourcedRecipient {
  line: number;
  recipient: BroadcastRecipientInput;
}

export interface LineError {
  line: number;
  /** The column (as the header names it) the problem is in, when it is in one. */
  column?: string | undefined;
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

/** A number as the server reads it, written +<digits>; null when the server would refuse it. */
export function normalizePhone(raw: string): string | null {
  const digits = recipientNumber(raw);
  return digits ? `+${digits}` : null;
}

const NO_ID_COLUMN =
  "The first row must name the columns, one of them to, phone or contact_id: add a header row such as to,1 and put each recipient's number under to.";

interface IdColumn {
  index: number;
  kind: "to" | "contact_id";
}

function findIdColumn(header: string[]): IdColumn | null {
  const names = header.map((name) => name.trim().toLowerCase());
  const phone = names.findIndex((name) => PHONE_COLUMNS.includes(name));
  if (phone >= 0) return { index: phone, kind: "to" };
  const contact = names.indexOf(CONTACT_COLUMN);
  return contact >= 0 ? { index: contact, kind: "contact_id" } : null;
}

/**
 * The template's variables against the file's columns: each variable needs a column of its name, and
 * a column that is no variable would be refused on every row. Reported once, on the header row.
 */
function columnErrors(shape: TemplateShape, columns: readonly string[]): LineError[] {
  const keys = variableKeys(shape);
  const missing = keys.filter((key) => !columns.includes(key));
  const unknown = columns.filter((column) => !keys.includes(column));
  return [
    ...missing.map((key) => ({
      line: 1,
      column: key,
      message: `The template needs ${key} for every recipient: add a column named ${key} with each one's value.`,
    })),
    ...unknown.map((column) => ({
      line: 1,
      column,
      message: `The template has no variable ${column}. ${variablesSentence(shape)} Rename this column to one of them, or remove it.`,
    })),
  ];
}

/** The column a problem is in: the id column for who, the variables' own columns for parameters. */
function problemColumn(problem: RecipientProblem, idColumn: string): string | undefined {
  if (problem.field !== "parameters") return idColumn;
  return problem.variables?.length ? problem.variables.join(", ") : undefined;
}

function rowRecipient(cells: string[], id: IdColumn, parameterIndexes: Array<[number, string]>): BroadcastRecipientInput | string {
  const who = (cells[id.index] ?? "").trim();
  if (!who) return id.kind === "to" ? "No phone number in this row: add it, or remove the row." : "No contact_id in this row: add it, or remove the row.";
  const parameters: Record<string, string> = {};
  for (const [index, name] of parameterIndexes) {
    const value = (cells[index] ?? "").trim();
    if (value) parameters[name] = value;
  }
  const extra = Object.keys(parameters).length > 0 ? { parameters } : {};
  if (id.kind === "contact_id") {
    return who.length > RECIPIENT_LIMITS.contactId ? `A contact_id has at most ${RECIPIENT_LIMITS.contactId} characters.` : { contact_id: who, ...extra };
  }
  return { to: who, ...extra };
}

/** The row as it will be sent (its number written +<digits>), or what the server would refuse it for. */
function judgeRow(recipient: BroadcastRecipientInput, shape: TemplateShape | null): BroadcastRecipientInput | RecipientProblem {
  const problem = shape ? recipientProblem(recipient, shape) : null;
  if (problem) return problem;
  const who = recipientWho(recipient);
  if ("message" in who) return who;
  return "to" in who ? { ...recipient, to: `+${who.to}` } : recipient;
}

/**
 * A CSV with a header row: a `to` / `phone` (or `contact_id`) column says who, every other named
 * column becomes a `parameters` key; empty cells are left out. With the broadcast's template shape,
 * the columns are checked against its variables and each row's values against it, as the server
 * will. Line numbers are the row numbers a spreadsheet shows (the header is 1; blank rows count but
 * are skipped).
 */
export function parseRecipientsCsv(text: string, shape: TemplateShape | null = null): ParsedRecipients {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { header: false, skipEmptyLines: false });
  const rows = parsed.data;
  const header = (rows[0] ?? []).map((name) => name.trim());
  const id = findIdColumn(header);
  if (!id) return { recipients: [], errors: [{ line: 1, message: NO_ID_COLUMN }], idColumn: null, parameterColumns: [] };
  const idColumn = header[id.index] ?? "";
  const parameterIndexes = header.flatMap((name, index): Array<[number, string]> => (index !== id.index && name ? [[index, name]] : []));
  const parameterColumns = parameterIndexes.map(([, name]) => name);
  const headerErrors = shape ? columnErrors(shape, parameterColumns) : [];
  if (headerErrors.length > 0) return { recipients: [], errors: headerErrors, idColumn, parameterColumns };
  const recipients: SourcedRecipient[] = [];
  const errors: LineError[] = [];
  rows.slice(1).forEach((cells, offset) => {
    const line = offset + 2;
    if (cells.every((cell) => cell.trim() === "")) return;
    const read = rowRecipient(cells, id, parameterIndexes);
    if (typeof read === "string") return errors.push({ line, column: idColumn, message: read });
    const judged = judgeRow(read, shape);
    if ("message" in judged) errors.push({ line, column: problemColumn(judged, idColumn), message: judged.message });
    else recipients.push({ line, recipient: judged });
  });
  return { recipients, errors, idColumn, parameterColumns };
}

/** Numbers pasted one per line (or separated by commas or semicolons); the line is the pasted line. */
export function parsePastedNumbers(text: string, shape: TemplateShape | null = null): ParsedRecipients {
  const recipients: SourcedRecipient[] = [];
  const errors: LineError[] = [];
  text.split(/\r?\n/).forEach((content, offset) => {
    for (const entry of content.split(/[,;]/)) {
      if (!entry.trim()) continue;
      const judged = judgeRow({ to: entry.trim() }, shape);
      if ("message" in judged) errors.push({ line: offset + 1, message: judged.message });
      else recipients.push({ line: offset + 1, recipient: judged });
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
