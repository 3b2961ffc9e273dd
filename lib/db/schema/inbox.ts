import { index, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, createdAt, updatedAt } from "./columns";
import { ASSIGNER_TYPES, conversations } from "./conversations";
import { projects } from "./projects";
import { users } from "./users";

/**
 * The team inbox's own rows (docs/api-decisions.md "Team inbox"): private notes on a conversation,
 * the project's saved replies, and each member's read position per conversation. Notes and reads go
 * with their conversation (erasure deletes it); reads also go with their user.
 */

/** A private note on a conversation: never sent to the customer. The author is kept as they read when writing. */
export const conversationNotes = pgTable(
  "conversation_notes",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    authorType: text("author_type", { enum: ASSIGNER_TYPES }).notNull(),
    authorId: text("author_id").notNull(),
    authorName: text("author_name").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("conversation_notes_conversation").on(t.projectId, t.conversationId, t.id)],
);

/** A reply the team reuses, found by its shortcut (unique per project). */
export const savedReplies = pgTable(
  "saved_replies",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    shortcut: text("shortcut").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("saved_replies_project_shortcut").on(t.projectId, t.shortcut), index("saved_replies_project_id").on(t.projectId, t.id)],
);

/** When a member last read a conversation: inbound messages stored after it are unread for them. */
export const conversationReads = pgTable(
  "conversation_reads",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lastReadAt: at("last_read_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.userId] }), index("conversation_reads_project_user").on(t.projectId, t.userId)],
);
