import { z } from "@/lib/api/zod";
import { CONVERSATION_VIEWS, WINDOW_FILTERS } from "@/lib/shared/inbox";
import { PageQuery, Timestamp } from "./common";

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

/** Who acted in the inbox (assigned a conversation, wrote a note), as they read at the time. */
export const InboxActor = z
  .object({
    type: z.enum(["member", "api_key"]).openapi({ description: "member: an operator in the dashboard; api_key: a key through the API." }),
    id: z.string().openapi({ description: "The member's user id (usr_…) or the key's id (key_…)." }),
    name: z.string().openapi({ description: "The member's name (else email) or the key's name (else its display), when they acted." }),
  })
  .openapi("InboxActor");

/** The team inbox's fields of the Conversation (docs/api-decisions.md "Team inbox"). */
export const ConversationInboxFields = {
  assignee: z
    .object({ id: z.string(), name: z.string().nullable(), email: z.string() })
    .nullable()
    .openapi({ description: "The member (a user of the project's organization, by user id) the conversation is assigned to; null when unassigned." }),
  assigned_at: Timestamp.nullable().openapi({ description: "When it was assigned to the current assignee; null when unassigned." }),
  assigned_by: InboxActor.nullable().openapi({ description: "Who assigned it to the current assignee; null when unassigned." }),
  unread_count: z.number().int().nullable().openapi({
    description:
      "Customer (inbound) messages stored since the calling member last opened the conversation in the inbox (all of them if they never did). null for an API key: keys have no read state.",
  }),
  ai_can_answer: z.boolean().openapi({
    description:
      "True when something automated answers the customer's next message now: handoff is AI_ACTIVE and either the last channel routes AGENT and the business agent owns the thread, or it routes FLOWS and the project has an active automation. EXTERNAL and NONE routing never answer themselves.",
  }),
};

/** GET /conversations/counts filters: every list filter but the view (each count is a view). */
export const ConversationFilterQuery = z.object({
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
  assignee: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .openapi({ description: "Only conversations assigned to this member (their user id), or `none` for unassigned ones.", example: "none" }),
  window: z.enum(WINDOW_FILTERS, { error: "Expected open, closing or closed." }).optional().openapi({
    description:
      "The messaging window on the last channel: open (the customer wrote within 24 h), closing (open, and closes within 1 h), closed (not open, including never written).",
  }),
});

/** GET /conversations filters (docs/api-decisions.md "Conversation filters and channel disconnect", "Team inbox"); all combine with AND. */
export const ConversationListQuery = PageQuery.extend(ConversationFilterQuery.shape).extend({
  view: z.enum(CONVERSATION_VIEWS, { error: "Expected all, open, needs_person, mine or unassigned." }).optional().openapi({
    description:
      "The inbox view (default all): open = window open on the last channel; needs_person = handoff HUMAN_ACTIVE; mine = assigned to the calling member (an API key gets 422: use assignee=<member user id>); unassigned = no assignee.",
  }),
});
