/**
 * Saved replies' variables (docs/api-decisions.md "Team inbox"), pure: the one list the schema checks
 * a body against and the render fills.
 */
export const SAVED_REPLY_VARIABLES = ["contact.name", "contact.phone", "member.name"] as const;
export type SavedReplyVariable = (typeof SAVED_REPLY_VARIABLES)[number];

const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The `{{…}}` names a body uses that are not variables (each once, in order). */
export function unknownVariables(body: string): string[] {
  const names = [...body.matchAll(VARIABLE)].map((m) => m[1]!);
  return [...new Set(names.filter((name) => !(SAVED_REPLY_VARIABLES as readonly string[]).includes(name)))];
}

/**
 * The body with each variable filled; one without a value (null or blank) renders empty and is listed
 * in `missing` (each once, in order), so the inbox can ask the person to fill it in before sending.
 */
export function renderSavedReply(body: string, values: Record<SavedReplyVariable, string | null>): { text: string; missing: SavedReplyVariable[] } {
  const missing = new Set<SavedReplyVariable>();
  const text = body.replace(VARIABLE, (whole, name: string) => {
    if (!(SAVED_REPLY_VARIABLES as readonly string[]).includes(name)) return whole;
    const value = values[name as SavedReplyVariable]?.trim();
    if (value) return value;
    missing.add(name as SavedReplyVariable);
    return "";
  });
  return { text, missing: [...missing] };
}
