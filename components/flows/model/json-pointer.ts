import { parsePointer } from "./findings";

/**
 * Where a JSON pointer's value sits in JSON text, as character offsets: what puts a finding's marker on
 * the right lines of the Flow JSON editor. A small scanner rather than a parser, because it must work
 * on the text as typed (formatting kept) and say how far it got when the pointer runs into something
 * missing: then the range is the deepest value that exists and `exact` is false.
 */
export interface PointerRange {
  start: number;
  end: number;
  exact: boolean;
}

const isSpace = (ch: string | undefined) => ch === " " || ch === "\n" || ch === "\r" || ch === "\t";

function skipSpace(text: string, at: number): number {
  while (isSpace(text[at])) at++;
  return at;
}

/** `at` on the opening quote; returns the index after the closing one. */
function skipString(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/** The end of the value starting at `at` (an object or array with everything in it, a string, a literal). */
function skipValue(text: string, at: number): number {
  const first = text[at];
  if (first === '"') return skipString(text, at);
  if (first !== "{" && first !== "[") {
    let i = at;
    while (i < text.length && !isSpace(text[i]) && text[i] !== "," && text[i] !== "}" && text[i] !== "]") i++;
    return i;
  }
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') i = skipString(text, i) - 1;
    else if (ch === "{" || ch === "[") depth++;
    else if (ch === "}" || ch === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}

/** The start of member `key` of the object at `at`, or -1. */
function findMember(text: string, at: number, key: string): number {
  let i = skipSpace(text, at + 1);
  while (i < text.length && text[i] === '"') {
    const keyEnd = skipString(text, i);
    let name: unknown;
    try {
      name = JSON.parse(text.slice(i, keyEnd));
    } catch {
      return -1;
    }
    i = skipSpace(text, keyEnd);
    if (text[i] !== ":") return -1;
    i = skipSpace(text, i + 1);
    if (name === key) return i;
    i = skipSpace(text, skipValue(text, i));
    if (text[i] !== ",") return -1;
    i = skipSpace(text, i + 1);
  }
  return -1;
}

/** The start of item `n` of the array at `at`, or -1. */
function findItem(text: string, at: number, n: number): number {
  let i = skipSpace(text, at + 1);
  for (let k = 0; i < text.length && text[i] !== "]"; k++) {
    if (k === n) return i;
    i = skipSpace(text, skipValue(text, i));
    if (text[i] !== ",") return -1;
    i = skipSpace(text, i + 1);
  }
  return -1;
}

export function pointerRange(text: string, pointer: string): PointerRange | null {
  let at = skipSpace(text, 0);
  if (at >= text.length) return null;
  for (const segment of parsePointer(pointer)) {
    const next = text[at] === "{" ? findMember(text, at, segment) : text[at] === "[" && /^\d+$/.test(segment) ? findItem(text, at, Number(segment)) : -1;
    if (next < 0) return { start: at, end: skipValue(text, at), exact: false };
    at = next;
  }
  return { start: at, end: skipValue(text, at), exact: true };
}
