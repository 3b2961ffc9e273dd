/**
 * Building blocks of the POST /messages request schemas (messages*.ts).
 *
 * Conventions shared by every message schema:
 * - Lengths count UTF-16 code units (JavaScript string length), never more lenient than the provider.
 * - Optional strings, when present, must not be empty: omit the field instead. The one exception is
 *   `reaction.emoji`, where "" means "remove my reaction" (spec).
 * - "Exactly one of a, b" problems are reported on every key of the pair that is present, or on every
 *   key of the pair when none is present, so a form can highlight the right inputs.
 * - "At most N items" problems are reported on the first item past the limit (`interactive.buttons.3`,
 *   `contacts.20`), which is where the client has to cut.
 */
import { z } from "@/lib/api/zod";

/** A string of min..max characters with messages that state the limit. */
export function text(max: number, min = 1) {
  return z
    .string()
    .min(min, min === 1 ? "Must not be empty." : `At least ${min} characters.`)
    .max(max, `At most ${max} characters.`);
}

/** Opaque ids we pass through (channel, conversation, provider message and media ids): 1 to 200. */
export const Id = text(200);

const HTTPS = /^https:\/\/[^\s/?#]+[^\s]*$/i;
const HTTP_OR_HTTPS = /^https?:\/\/[^\s/?#]+[^\s]*$/i;

function isUrl(value: string, pattern: RegExp): boolean {
  return pattern.test(value) && URL.canParse(value);
}

/** An absolute https:// URL (media links, stickers): the provider fetches it, so no other scheme. */
export const HttpsUrl = z
  .string()
  .max(2048, "At most 2048 characters.")
  .refine((v) => isUrl(v, HTTPS), "Must be an absolute https:// URL.")
  .openapi({ format: "uri", description: "Absolute https URL, at most 2048 characters.", example: "https://example.com/photo.jpg" });

/** An absolute http(s) URL (cta_url buttons open it on the customer's device). */
export const HttpUrl = z
  .string()
  .max(2048, "At most 2048 characters.")
  .refine((v) => isUrl(v, HTTP_OR_HTTPS), "Must be an absolute http:// or https:// URL.")
  .openapi({ format: "uri", description: "Absolute http(s) URL, at most 2048 characters.", example: "https://example.com/offer" });

/**
 * A text the provider wraps in an object (`body: {text}`, `footer: {text}`): accepted as a plain string
 * or as `{text}`, and normalized to the string.
 */
export function wrappedText(max: number, description: string) {
  return z
    .union([text(max), z.object({ text: text(max) }).strict()], { error: unionError(`Must be a string of 1 to ${max} characters or {"text": "..."}.`) })
    .transform((value) => (typeof value === "string" ? value : value.text))
    .openapi({ description: `${description} A string of 1 to ${max} characters, or the provider form {"text": "..."}.` });
}

/**
 * Error map for "a string or an object" unions. When neither branch fits and the input is an object,
 * zod reports only "Invalid input" on the union; this names the object branch's first problem instead.
 */
export function unionError(expected: string) {
  return (issue: { code?: string; input?: unknown; errors?: unknown }): string | undefined => {
    if (issue.code !== "invalid_union") return undefined;
    const branches = Array.isArray(issue.errors) ? (issue.errors as { path: PropertyKey[]; message: string }[][]) : [];
    const first = branches[branches.length - 1]?.[0];
    if (typeof issue.input !== "object" || issue.input === null || !first) return expected;
    return `${expected} (${first.path.length ? `${first.path.map(String).join(".")}: ` : ""}${first.message})`;
  };
}

/** "Exactly one of `keys`": issues on the offending keys (see the file comment). */
export function exactlyOne(ctx: z.RefinementCtx, value: Record<string, unknown>, keys: readonly string[], message: string): void {
  const present = keys.filter((key) => value[key] !== undefined);
  if (present.length === 1) return;
  for (const key of present.length ? present : keys) ctx.addIssue({ code: "custom", path: [key], message });
}

/** "At most `max` items": one issue on the first item past the limit. */
export function capItems(ctx: z.RefinementCtx, items: readonly unknown[], max: number, message: string): void {
  if (items.length > max) ctx.addIssue({ code: "custom", path: [max], message });
}

/** Duplicate values of `key` across `items`: an issue on each repeat (`buttons.2.id`). */
export function uniqueBy<T>(ctx: z.RefinementCtx, items: readonly T[], key: keyof T & string, message: string): void {
  const seen = new Set<unknown>();
  items.forEach((item, index) => {
    const value = item[key];
    if (seen.has(value)) ctx.addIssue({ code: "custom", path: [index, key], message });
    seen.add(value);
  });
}

/** Re-reports another schema's failures inside a refinement, under `prefix`. */
export function forwardIssues(ctx: z.RefinementCtx, error: z.ZodError, prefix: readonly PropertyKey[] = []): void {
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) ctx.addIssue({ code: "custom", path: [...prefix, ...issue.path, key], message: "Unknown or read-only field." });
    } else {
      ctx.addIssue({ code: "custom", path: [...prefix, ...issue.path], message: issue.message });
    }
  }
}
