/**
 * Strings Postgres can store. A text or jsonb value cannot hold NUL (U+0000), and jsonb refuses a
 * lone UTF-16 surrogate ("\ud800" with no partner), so either one turned a request into a 500 and an
 * inbound message into an ingest job that failed on every retry. The API refuses them (400 naming the
 * field: lib/api/request-input.ts); ingest stores the message with them replaced (U+FFFD).
 */

// A lone high surrogate (not followed by a low one) or a lone low surrogate (not preceded by a high one).
// eslint-disable-next-line no-control-regex -- NUL is one of the unstorable characters this finds
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, "g");

export function isStorable(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** NUL and lone surrogates become U+FFFD; everything else is kept as it is. */
export function toStorable(text: string): string {
  return isStorable(text) ? text : text.replace(UNSTORABLE_ALL, "\uFFFD");
}

/**
 * A JSON escape that decodes to NUL or to half a surrogate pair (\u0000, \uD800 to \uDFFF, in either
 * case). A valid pair matches too: such a text takes the checked path, which keeps the pair.
 */
const UNSTORABLE_ESCAPE = /\\u(?:0000|d[89a-f])/i;

/**
 * JSON.parse with every string value made storable (toStorable). A parsed string can only hold NUL or
 * a lone surrogate that the text holds itself or writes as an escape: a text with neither (nearly all;
 * a provider's envelope of hundreds of statuses among them) is parsed as it is, without a reviver
 * called for every value.
 */
export function parseStorableJson(text: string): unknown {
  if (isStorable(text) && !UNSTORABLE_ESCAPE.test(text)) return JSON.parse(text);
  return JSON.parse(text, (_key, value: unknown) => (typeof value === "string" ? toStorable(value) : value));
}

// eslint-disable-next-line no-control-regex -- NUL is what this finds
const NUL_ALL = /\u0000/g;
const LONE_SURROGATE_ALL = new RegExp(UNSTORABLE.source.replace("\\u0000|", ""), "g");

/**
 * What user code wrote (a hosted function's result, logs, error): lone surrogates become U+FFFD as in
 * toStorable, but NUL becomes U+2400 (␀, "symbol for null"), so the character stays visible where it
 * was instead of vanishing or cutting the text (docs/api-decisions.md "Hosted functions").
 */
export function toStorableOutput(text: string): string {
  return isStorable(text) ? text : text.replace(NUL_ALL, "\u2400").replace(LONE_SURROGATE_ALL, "\uFFFD");
}

/** Why `text` cannot be stored, for an error message; null when it can. */
export function unstorableReason(text: string): string | null {
  const found = UNSTORABLE.exec(text);
  if (!found) return null;
  return found[0] === "\u0000" ? "contains a NUL character (\\u0000)" : "contains a lone UTF-16 surrogate (invalid Unicode)";
}
