import { SvcError, invalidRequest } from "@/lib/errors";
import { unstorableReason } from "@/lib/text/storable";

/**
 * The one place request input is read and checked before any schema sees it (docs/api-decisions.md →
 * "Request limits"): a size cap enforced while reading, a nesting cap checked before parsing, and
 * strings Postgres cannot store refused with a 400 naming the field.
 */

/** API JSON bodies; a route that needs more (e.g. function source) declares its own maxBodyBytes. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
/** Deeper JSON is refused before JSON.parse (and before the canonical-JSON fingerprint recurses into it). */
export const MAX_JSON_DEPTH = 64;

function payloadTooLarge(maxBytes: number): SvcError {
  return new SvcError("payload_too_large", `The request body is larger than ${maxBytes} bytes, the limit of this operation.`, { max_bytes: maxBytes });
}

/** How much of a refused body is still read (and dropped) after the 413, and for how long at most. */
const REFUSED_BODY_DRAIN = { maxBytes: 64 * 1024 * 1024, maxMs: 10_000 };

/**
 * The body's bytes, refused with 413 as soon as they pass `maxBytes`: a declared Content-Length over
 * the cap is refused before reading, and a body without one (or lying about it) is cut off mid-stream.
 * The rest of a refused body is read and dropped before the 413 goes out (bounded by REFUSED_BODY_DRAIN),
 * as nginx's lingering close does: Next.js closes the socket once the response is sent, and closing it
 * with unread bytes makes TCP send a reset that can destroy the 413 before a client still sending reads it.
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    if (request.body) await drainRefused(request.body.getReader());
    throw payloadTooLarge(maxBytes);
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await drainRefused(reader);
      throw payloadTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Reads and drops what is left of a refused body, then lets go of it (cancel) once past the bounds. */
export async function drainRefused(reader: ReadableStreamDefaultReader<Uint8Array>, bounds = REFUSED_BODY_DRAIN): Promise<number> {
  const deadline = Date.now() + bounds.maxMs;
  let drained = 0;
  try {
    while (drained <= bounds.maxBytes && Date.now() < deadline) {
      const { done, value } = await reader.read();
      if (done) return drained;
      drained += value.byteLength;
    }
  } catch {
    return drained; // the client went away: nothing left to drain
  }
  await reader.cancel().catch(() => {});
  return drained;
}

/** True when arrays/objects in the JSON text nest deeper than `max` (a linear scan; strings skipped). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Parses a JSON request body under the depth cap; undefined for an empty optional body. */
export function parseJsonText(text: string, optional: boolean): unknown {
  if (text.trim() === "") {
    if (optional) return undefined;
    throw new SvcError("invalid_json", "The request body is empty; this operation expects a JSON object.");
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new SvcError("invalid_json", `The request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels.`, { max_depth: MAX_JSON_DEPTH });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SvcError("invalid_json", "The request body is not valid JSON.");
  }
  assertStorable(value, "body");
  return value;
}

/**
 * Refuses a NUL or a lone surrogate anywhere in `value` (keys included), and a key named `__proto__`,
 * with 400 invalid_request, the issue keyed by the field's dotted path (`body` / `query` / `path` for
 * the top level). JSON.parse makes `__proto__` an own key, but a schema's record (`z.record`) drops it
 * without a word, so `{"__proto__": "x"}` would be a write of nothing answered 200.
 */
export function assertStorable(value: unknown, where: "body" | "query" | "path"): void {
  const found = firstUnstorable(value, []);
  if (!found) return;
  const field = found.path.length ? found.path.join(".") : where;
  const issues: Record<string, string[]> = Object.create(null);
  issues[field] = [`The value ${found.reason}.`];
  throw invalidRequest(`Invalid ${where === "path" ? "path parameter" : where}: ${field}.`, issues);
}

function firstUnstorable(value: unknown, path: string[]): { path: string[]; reason: string } | null {
  if (typeof value === "string") {
    const reason = unstorableReason(value);
    return reason ? { path, reason } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstUnstorable(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key === "__proto__") return { path: [...path, key], reason: "has a key named __proto__, which is not accepted as a field or name" };
      const keyReason = unstorableReason(key);
      if (keyReason) return { path: [...path, JSON.stringify(key).slice(1, -1)], reason: `has a key that ${keyReason}` };
      const found = firstUnstorable(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}
