// Filling a saved reply's variables (docs/api-decisions.md "Team inbox"), pure; the variables' list is lib/shared/inbox.ts.
import { SAVED_REPLY_VARIABLE, SAVED_REPLY_VARIABLES, type SavedReplyVariable } from "@/lib/shared/inbox";

/**
 * The body with each variable filled; one without a value (null or blank) renders empty and is listed
 * in `missing` (each once, in order), so the inbox can ask the person to fill it in before sending.
 */
export function renderSavedReply(body: string, values: Record<SavedReplyVariable, string | null>): { text: string; missing: SavedReplyVariable[] } {
  const missing = new Set<SavedReplyVariable>();
  const text = body.replace(SAVED_REPLY_VARIABLE, (whole, name: string) => {
    if (!(SAVED_REPLY_VARIABLES as readonly string[]).includes(name)) return whole;
    const value = values[name as SavedReplyVariable]?.trim();
    if (value) return value;
    missing.add(name as SavedReplyVariable);
    return "";
  });
  return { text, missing: [...missing] };
}
