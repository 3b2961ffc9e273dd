import { z } from "zod";
import { DRAFT_FIELD_TYPES } from "./flow-json/types";

/**
 * The Flow draft's shape (docs/spec/decisions.md "Flows": screens of fields) with its hard size caps,
 * defined once for POST/PATCH /flows and the config document. The two differ in strictness only:
 * the API drops unknown keys (`strip`), the config document reports them (`strict`), so a typo in a
 * config file is an issue. The provider's rules (screen ids, label lengths, navigation) are not here:
 * they are flow findings (flow-json/), so a work-in-progress draft can be saved.
 */

type Strictness = "strict" | "strip";
type DraftPart = "FlowDraftField" | "FlowDraftScreen" | "FlowDraft";

export const DRAFT_DESCRIPTION = "The draft shape (docs/spec/decisions.md): screens of fields, compiled to Flow JSON 7.3 at every save.";

/**
 * `name` lets the API give the field, screen and draft their OpenAPI component names (so the
 * document refers to them rather than repeating them); elsewhere it is left as is.
 */
export function draftSchemas(strictness: Strictness, name: <T extends z.ZodType>(schema: T, part: DraftPart) => T = (schema) => schema) {
  const object = <S extends z.ZodRawShape>(shape: S) => (strictness === "strict" ? z.object(shape).strict() : z.object(shape));
  const option = object({ id: z.string().min(1).max(200), title: z.string().min(1).max(200) });
  const field = name(
    object({
      name: z.string().min(1).max(200),
      type: z.enum(DRAFT_FIELD_TYPES),
      label: z.string().min(1).max(1000),
      required: z.boolean().optional(),
      options: z.array(option).max(500).optional(),
      helper_text: z.string().max(1000).optional(),
      min_length: z.number().int().min(0).max(100_000).optional(),
      max_length: z.number().int().min(1).max(100_000).optional(),
    }),
    "FlowDraftField",
  );
  const screen = name(
    object({
      id: z.string().min(1).max(200),
      title: z.string().min(1).max(1000),
      body: z.string().max(10_000).optional(),
      fields: z.array(field).max(200),
      next: z.string().min(1).max(200).optional(),
      submit_label: z.string().min(1).max(200).optional(),
    }),
    "FlowDraftScreen",
  );
  const draft = name(object({ entryScreenId: z.string().min(1).max(200), screens: z.array(screen).min(1).max(500) }), "FlowDraft");
  return { field, screen, draft };
}
