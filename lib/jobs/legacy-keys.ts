import { z } from "zod";

/**
 * A job payload schema that also takes keys an earlier release enqueued under (`{ old: "new" }`).
 * Jobs wait in the queue across a deploy (a delay, a retry's backoff, a backlog), so a renamed key
 * must still be read for one release; the new key wins when both are present. The schema's input
 * type stays the new shape, so the catalog (catalog.ts) makes every new send use the new keys.
 *
 * Each use says since when it is there; remove it one release later, when no queue can still hold a
 * job of the old shape.
 */
export function withLegacyKeys<S extends z.ZodType<object>>(
  schema: S,
  renamed: Record<string, keyof z.output<S> & string>,
): z.ZodType<z.output<S>, z.input<S>> {
  const upgrade = (data: unknown): unknown => {
    if (data === null || typeof data !== "object" || Array.isArray(data)) return data;
    const payload: Record<string, unknown> = { ...data };
    for (const [old, key] of Object.entries(renamed)) {
      if (old in payload && !(key in payload)) payload[key] = payload[old];
      delete payload[old];
    }
    return payload;
  };
  // The pipe's input is `unknown` (anything goes into a preprocess); the new shape is what senders owe.
  return z.preprocess(upgrade, schema) as unknown as z.ZodType<z.output<S>, z.input<S>>;
}
