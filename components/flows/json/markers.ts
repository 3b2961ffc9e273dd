import type { MarkerSpot } from "@/components/code-editor/marker-spot";
import type { Finding } from "../model/findings";
import { pointerRange } from "../model/json-pointer";

export type { MarkerSpot };

function positionAt(text: string, offset: number): { lineNumber: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < end; i++) {
    if (text[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  }
  return { lineNumber: line, column: end - lineStart + 1 };
}

const describe = (finding: Finding) => [`${finding.code}: ${finding.message}`, finding.nextSteps].filter(Boolean).join("\n");

function lineLength(text: string, lineNumber: number): number {
  return (text.split("\n")[lineNumber - 1] ?? "").length;
}

/**
 * Where each finding goes in the Flow JSON text: the provider's by line and column; ours by their
 * pointer, when the pointers refer to this text (a flow given as Flow JSON; a draft's pointers point
 * into the draft). A pointer that runs into something missing marks the first line of the deepest
 * value that exists, not all of it.
 */
export function findingMarkers(text: string, findings: Finding[], pointersIntoText: boolean): MarkerSpot[] {
  const spots: MarkerSpot[] = [];
  for (const finding of findings) {
    if (finding.lines) {
      const { start, end, columnStart, columnEnd } = finding.lines;
      spots.push({
        startLineNumber: start,
        startColumn: columnStart ?? 1,
        endLineNumber: end,
        endColumn: columnEnd ?? lineLength(text, end) + 1,
        message: describe(finding),
      });
      continue;
    }
    if (!pointersIntoText || finding.path === undefined) continue;
    const range = pointerRange(text, finding.path);
    if (!range) continue;
    const from = positionAt(text, range.start);
    const to = range.exact ? positionAt(text, range.end) : { lineNumber: from.lineNumber, column: lineLength(text, from.lineNumber) + 1 };
    spots.push({ startLineNumber: from.lineNumber, startColumn: from.column, endLineNumber: to.lineNumber, endColumn: to.column, message: describe(finding) });
  }
  return spots;
}
