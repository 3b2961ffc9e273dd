import { z } from "@/lib/api/zod";
import { PageQuery } from "./common";

/**
 * Who owns the conversation's thread on its last channel (docs/spec/decisions.md "Business agents",
 * thread control). null when the project does not route AGENT (docs/api-decisions.md "Business agents:
 * thread owner on the conversation"). Optional in the schema so older payloads still parse; the API
 * always sends it.
 */
export const ConversationThreadOwner = z.enum(["PROVIDER_AGENT", "SERVICE", "BUSINESS_INBOX"]).nullable().optional().openapi({
  description:
    "Who answers the customer on the conversation's last channel (POST /business-agents/thread-control): PROVIDER_AGENT (the business agent), SERVICE (your webhook and automations), BUSINESS_INBOX (a person in the inbox; handoff is on). null when the last channel does not route AGENT (its own routing_mode, else the project's).",
  example: "PROVIDER_AGENT",
});

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
