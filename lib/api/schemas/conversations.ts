import { z } from "@/lib/api/zod";
import { PageQuery } from "./common";

/** GET /conversations filters (docs/api-decisions.md "Conversation filters and channel disconnect"); all combine with AND. */
export const ConversationListQuery = PageQuery.extend({
  q: z.string().max(200).optional().openapi({
    description:
      "Case-insensitive substring of the contact's name or phone number. % and _ match themselves. A query made only of digits and phone punctuation (`+1 (415) 555-0100`) also matches the number's digits. Empty means no filter.",
    example: "ana",
  }),
  channel_id: z.string().min(1).max(200).optional().openapi({
    description:
      "Only conversations that have a message on this channel, or whose last channel it is. An id the project has no conversation on gives an empty list.",
  }),
  contact_id: z.string().min(1).max(200).optional().openapi({ description: "Only the conversation with this contact (one per project and contact)." }),
  handoff: z
    .enum(["AI_ACTIVE", "HUMAN_ACTIVE"], { error: "Expected AI_ACTIVE or HUMAN_ACTIVE." })
    .optional()
    .openapi({ description: "Only conversations whose handoff status is this: HUMAN_ACTIVE while a teammate has taken over." }),
});
