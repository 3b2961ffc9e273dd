/**
 * The team inbox's vocabulary (docs/api-decisions.md "Team inbox"), pure data both the server and the
 * dashboard read: the list's views and window filters, and saved replies' shortcut rule and variables.
 */
export const CONVERSATION_VIEWS = ["all", "open", "needs_person", "mine", "unassigned"] as const;
export type ConversationView = (typeof CONVERSATION_VIEWS)[number];

export const WINDOW_FILTERS = ["open", "closing", "closed"] as const;
export type WindowFilter = (typeof WINDOW_FILTERS)[number];

/** A saved reply's shortcut: a slug, unique per project. */
export const SAVED_REPLY_SHORTCUT = /^[a-z0-9][a-z0-9_-]{0,39}$/;

export const SAVED_REPLY_VARIABLES = ["contact.name", "contact.phone", "member.name"] as const;
export type SavedReplyVariable = (typeof SAVED_REPLY_VARIABLES)[number];

/** A `{{ name }}` in a saved reply's body (spaces inside the braces allowed). */
export const SAVED_REPLY_VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The `{{…}}` names a body uses that are not variables (each once, in order): the API refuses them. */
export function unknownVariables(body: string): string[] {
  const names = [...body.matchAll(SAVED_REPLY_VARIABLE)].map((m) => m[1]!);
  return [...new Set(names.filter((name) => !(SAVED_REPLY_VARIABLES as readonly string[]).includes(name)))];
}
