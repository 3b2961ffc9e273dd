import { toStorableOutput } from "./storable";

/**
 * A JSON value user code produced, made storable in jsonb (lib/text/storable.ts): every string and
 * object key through toStorableOutput, on a fresh copy (Object.fromEntries: a key `__proto__` stays a key).
 * Postgres takes deep jsonb, but serialising it on the way there is recursive in V8 and overflows the
 * stack at a few thousand levels, so a value nested deeper than `maxDepth` is refused instead.
 */
const MAX_OUTPUT_DEPTH = 256;

export type StorableJson = { ok: true; value: unknown } | { ok: false; reason: string };

export function storableJson(value: unknown, maxDepth = MAX_OUTPUT_DEPTH): StorableJson {
  const tooDeep = { reached: false };
  const copy = copyStorable(value, 0, maxDepth, tooDeep);
  if (tooDeep.reached) return { ok: false, reason: `it nests arrays or objects deeper than ${maxDepth} levels` };
  return { ok: true, value: copy };
}

function copyStorable(value: unknown, depth: number, maxDepth: number, tooDeep: { reached: boolean }): unknown {
  if (typeof value === "string") return toStorableOutput(value);
  if (value === null || typeof value !== "object") return typeof value === "number" && !Number.isFinite(value) ? null : value;
  if (depth >= maxDepth) {
    tooDeep.reached = true;
    return null;
  }
  if (Array.isArray(value)) return value.map((item) => copyStorable(item, depth + 1, maxDepth, tooDeep));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [toStorableOutput(key), copyStorable(item, depth + 1, maxDepth, tooDeep)]));
}
