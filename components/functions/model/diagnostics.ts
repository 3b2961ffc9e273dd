import type { MarkerSpot } from "@/components/code-editor/marker-spot";

/**
 * A failed deploy answers `diagnostics` = `["<line>:<column> <message>", ...]` with 1-based positions
 * in the source as sent (docs/spec/decisions.md "Hosted functions"). Here they become a list the page
 * shows and the markers the editor draws, without Monaco, so both are tested alone.
 */
export interface DeployDiagnostic {
  /** 1-based; null when the text carries no position (then it belongs to the whole file). */
  line: number | null;
  column: number | null;
  message: string;
}

const POSITIONED = /^(\d+):(\d+)\s+([\s\S]*)$/;

export function parseDiagnostic(text: string): DeployDiagnostic {
  const match = POSITIONED.exec(text.trim());
  if (!match) return { line: null, column: null, message: text.trim() };
  const line = Number(match[1]);
  const column = Number(match[2]);
  if (line < 1 || column < 1) return { line: null, column: null, message: match[3]!.trim() || text.trim() };
  return { line, column, message: match[3]!.trim() };
}

const WORD = /^[\p{L}\p{N}_$]+/u;

/**
 * One marker per diagnostic: from its column to the end of the word there (one character when there
 * is none), kept inside the text: a position past the end of a line or of the file (the source
 * changed since the deploy, or the end of input) lands on the last character there is.
 */
export function diagnosticMarkers(source: string, diagnostics: readonly string[]): MarkerSpot[] {
  const lines = source.split("\n");
  return diagnostics.map((text) => {
    const { line, column, message } = parseDiagnostic(text);
    if (line === null || column === null) {
      return { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: (lines[0]?.length ?? 0) + 1, message };
    }
    const lineNumber = Math.min(line, lines.length);
    const lineText = (lines[lineNumber - 1] ?? "").replace(/\r$/, "");
    const startColumn = Math.min(column, Math.max(lineText.length, 1));
    const word = WORD.exec(lineText.slice(startColumn - 1))?.[0].length ?? 0;
    return { startLineNumber: lineNumber, startColumn, endLineNumber: lineNumber, endColumn: startColumn + Math.max(word, 1), message };
  });
}

/** "Line 3, column 7" for the list under the editor; null when the diagnostic has no position. */
export function positionLabel(diagnostic: DeployDiagnostic): string | null {
  return diagnostic.line === null ? null : `Line ${diagnostic.line}, column ${diagnostic.column}`;
}
