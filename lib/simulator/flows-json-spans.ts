/**
 * Where each value of a JSON text sits, so a Flow JSON finding can carry the provider's
 * line_start / line_end / column_start / column_end (1-based) and its pointer path
 * (`screens[0].layout.children[1].type`). Runs only on text JSON.parse accepted.
 */
export interface JsonSpan {
  line_start: number;
  line_end: number;
  column_start: number;
  column_end: number;
}

export function childPath(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return parent === "" ? key : `${parent}.${key}`;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
  return starts;
}

function locate(starts: number[], offset: number): { line: number; column: number } {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - starts[low]! + 1 };
}

class Scanner {
  private i = 0;
  readonly spans = new Map<string, { start: number; end: number }>();

  constructor(private readonly text: string) {}

  private skipSpace(): void {
    while (this.i < this.text.length && /\s/.test(this.text[this.i]!)) this.i++;
  }

  private string(): string {
    let j = this.i + 1;
    while (j < this.text.length && this.text[j] !== '"') j += this.text[j] === "\\" ? 2 : 1;
    const raw = this.text.slice(this.i, j + 1);
    this.i = j + 1;
    return JSON.parse(raw) as string;
  }

  /** Items of an object or array, after its opening bracket; `item` scans one and returns. */
  private items(close: string, item: (index: number) => void): void {
    this.i++;
    this.skipSpace();
    if (this.text[this.i] === close) {
      this.i++;
      return;
    }
    for (let index = 0; this.i < this.text.length; index++) {
      item(index);
      this.skipSpace();
      const separator = this.text[this.i++];
      if (separator !== ",") return;
    }
  }

  value(path: string): void {
    this.skipSpace();
    const start = this.i;
    const c = this.text[this.i];
    if (c === "{") {
      this.items("}", () => {
        this.skipSpace();
        const key = this.string();
        this.skipSpace();
        this.i++; // the colon
        this.value(childPath(path, key));
      });
    } else if (c === "[") {
      this.items("]", (index) => this.value(childPath(path, index)));
    } else if (c === '"') {
      this.string();
    } else {
      while (this.i < this.text.length && !/[\s,\]}]/.test(this.text[this.i]!)) this.i++;
    }
    this.spans.set(path, { start, end: Math.max(start, this.i - 1) });
  }
}

/** Every value's span by path ("" is the whole document). Empty when the text is too deep to scan. */
export function jsonSpans(text: string): Map<string, JsonSpan> {
  const scanner = new Scanner(text);
  try {
    scanner.value("");
  } catch {
    // Only a pathological nesting depth gets here (the text parsed): findings then go without positions.
    return new Map();
  }
  const starts = lineStarts(text);
  const out = new Map<string, JsonSpan>();
  for (const [path, { start, end }] of scanner.spans) {
    const from = locate(starts, start);
    const to = locate(starts, end);
    out.set(path, { line_start: from.line, line_end: to.line, column_start: from.column, column_end: to.column + 1 });
  }
  return out;
}

/** The span of `path`, or of its nearest ancestor that exists (a missing property points at its object). */
export function spanOf(spans: Map<string, JsonSpan>, path: string): JsonSpan | undefined {
  let current = path;
  for (;;) {
    const span = spans.get(current);
    if (span || current === "") return span;
    const cut = Math.max(current.lastIndexOf("."), current.lastIndexOf("["));
    current = cut <= 0 ? "" : current.slice(0, cut);
  }
}
