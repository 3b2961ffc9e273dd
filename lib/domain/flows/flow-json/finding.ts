import type { FlowFinding, FlowFindingCode } from "./types";

export function finding(code: FlowFindingCode, path: string, message: string, next_steps: string): FlowFinding {
  return { code, message, path, next_steps };
}

/** A text that is over its limit, or null. Length counts code points, as a person counts characters. */
export function textTooLong(path: string, what: string, text: string, max: number): FlowFinding | null {
  const length = [...text].length;
  if (length <= max) return null;
  return finding("TEXT_TOO_LONG", path, `${what} is ${length} characters; the limit is ${max}.`, `Shorten ${lowerFirst(what)} to ${max} characters or fewer.`);
}

/** The provider refuses empty or blank texts. */
export function blankText(path: string, what: string, text: string): FlowFinding | null {
  if (text.trim() !== "") return null;
  return finding("EMPTY_TEXT", path, `${what} is blank.`, `Give ${what} some text, or remove it.`);
}

/** "The label of ..." reads "the label of ..." inside a sentence. */
function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
