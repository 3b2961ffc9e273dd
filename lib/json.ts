/** A plain JSON object (not null, not an array): the narrowing every parser of provider JSON needs. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
