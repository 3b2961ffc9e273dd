// The team inbox's wire shapes (docs/api-decisions.md "Team inbox"): assignment, counts, notes, saved replies.
import { z } from "@/lib/api/zod";
import { SAVED_REPLY_SHORTCUT, SAVED_REPLY_VARIABLES, unknownVariables } from "@/lib/shared/inbox";
import { Timestamp } from "./common";
import { InboxActor } from "./conversations";

export const AssignmentRequest = z
  .object({
    assignee_id: z.string().min(1).max(200).nullable().openapi({ description: "The user id of a member of the project's organization, or null to unassign." }),
    handoff: z.boolean().optional().openapi({
      description: "Assigning turns the handoff on (HUMAN_ACTIVE: automated replies stop) unless this is false. Unassigning never changes the handoff.",
    }),
  })
  .strict()
  .openapi("AssignmentRequest");

const count = z.number().int();
export const ConversationCounts = z
  .object({
    object: z.literal("conversation_counts"),
    all: count,
    open: count.openapi({ description: "The messaging window is open on the last channel." }),
    needs_person: count.openapi({ description: "Handoff HUMAN_ACTIVE." }),
    mine: count.nullable().openapi({ description: "Assigned to the calling member; null for an API key." }),
    unassigned: count,
    unread: count.nullable().openapi({ description: "With unread customer messages for the calling member (unread_count > 0); null for an API key." }),
  })
  .openapi("ConversationCounts");

export const Note = z
  .object({
    object: z.literal("note"),
    id: z.string(),
    conversation_id: z.string(),
    author: InboxActor,
    body: z.string(),
    created_at: Timestamp,
  })
  .openapi("Note", { description: "A private note on a conversation, for the team: never sent to the customer." });

export const NoteCreate = z
  .object({ body: z.string().trim().min(1, "Write the note's text.").max(4000).openapi({ description: "1 to 4,000 characters." }) })
  .strict()
  .openapi("NoteCreate");

const Shortcut = z
  .string()
  .regex(SAVED_REPLY_SHORTCUT, "Use 1 to 40 lower-case letters, digits, - or _, starting with a letter or digit, e.g. greeting.")
  .openapi({ description: "A slug the inbox finds the reply by, unique in the project (409 on a duplicate).", example: "greeting" });

const Body = z
  .string()
  .min(1)
  .max(4096)
  .superRefine((body, issues) => {
    const unknown = unknownVariables(body);
    if (unknown.length) {
      issues.addIssue({
        code: "custom",
        message: `Unknown variable ${unknown.map((name) => `{{${name}}}`).join(", ")}: use ${SAVED_REPLY_VARIABLES.map((name) => `{{${name}}}`).join(", ")}.`,
      });
    }
  })
  .openapi({
    description: `1 to 4,096 characters. Variables filled by the render: ${SAVED_REPLY_VARIABLES.map((name) => `{{${name}}}`).join(", ")}.`,
    example: "Hi {{contact.name}}, this is {{member.name}}. How can I help?",
  });

const Title = z.string().trim().min(1).max(200).openapi({ description: "A name for people; defaults to the shortcut.", example: "Greeting" });

export const SavedReply = z
  .object({
    object: z.literal("saved_reply"),
    id: z.string(),
    shortcut: z.string(),
    title: z.string(),
    body: z.string(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("SavedReply");

export const SavedReplyCreate = z.object({ shortcut: Shortcut, title: Title.optional(), body: Body }).strict().openapi("SavedReplyCreate");

export const SavedReplyUpdate = z.object({ shortcut: Shortcut, title: Title, body: Body }).partial().strict().openapi("SavedReplyUpdate");

export const SavedReplyDeleted = z.object({ object: z.literal("saved_reply"), id: z.string(), deleted: z.literal(true) }).openapi("SavedReplyDeleted");

export const SavedReplyRenderRequest = z
  .object({ conversation_id: z.string().min(1).max(200).openapi({ description: "A conversation of the project: its contact fills contact.*." }) })
  .strict()
  .openapi("SavedReplyRenderRequest");

export const SavedReplyRender = z
  .object({
    object: z.literal("saved_reply_render"),
    text: z.string().openapi({ description: "The body with its variables filled; one without a value is left empty." }),
    missing: z.array(z.enum(SAVED_REPLY_VARIABLES)).openapi({ description: "The variables that had no value (each once), e.g. member.name for an API key." }),
  })
  .openapi("SavedReplyRender");

export type NoteWire = z.infer<typeof Note>;
export type SavedReplyWire = z.infer<typeof SavedReply>;
export type ConversationCountsWire = z.infer<typeof ConversationCounts>;
export type SavedReplyRenderWire = z.infer<typeof SavedReplyRender>;
