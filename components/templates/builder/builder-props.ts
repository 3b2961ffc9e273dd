import type { SectionName, TemplateDraft } from "../model/draft";

/** Changes the draft through a pure recipe (the model's functions, or a spread). */
export type UpdateDraft = (recipe: (draft: TemplateDraft) => TemplateDraft) => void;

/**
 * The server's issue for a field: `errorOf("BODY", "text")` reads `components.<body index>.text` of
 * the last submission, `errorOf(null, "name")` a top-level field, `errorOf("BODY")` what the section's
 * fields do not show.
 */
export type ErrorOf = (section: SectionName | null, sub?: string) => string | undefined;

export interface SectionProps {
  draft: TemplateDraft;
  update: UpdateDraft;
  errorOf: ErrorOf;
}
