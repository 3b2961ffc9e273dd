import { boolean, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, createdAt, updatedAt } from "./columns";
import { projects } from "./projects";
import { users } from "./users";

/** Who assigned a conversation (docs/api-decisions.md "Team inbox"): an operator or an API key. */
export const ASSIGNER_TYPES = ["member", "api_key"] as const;

export const conversations = pgTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    contactId: text("contact_id").notNull(),
    lastChannelId: text("last_channel_id"),
    isActive: boolean("is_active").notNull().default(true),
    handoffStatus: text("handoff_status", { enum: ["AI_ACTIVE", "HUMAN_ACTIVE"] })
      .notNull()
      .default("AI_ACTIVE"),
    handoffReason: text("handoff_reason"),
    handoffAt: at("handoff_at"),
    startedAt: at("started_at").notNull(),
    lastMessageAt: at("last_message_at"),
    /** The member (a user of the project's organization) the conversation is assigned to; a removed user unassigns it. */
    assigneeUserId: text("assignee_user_id").references(() => users.id, { onDelete: "set null" }),
    assignedAt: at("assigned_at"),
    /** Who assigned it, as they read at the time (the assigner may be gone since). */
    assignedByType: text("assigned_by_type", { enum: ASSIGNER_TYPES }),
    assignedById: text("assigned_by_id"),
    assignedByName: text("assigned_by_name"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("conversations_project_contact").on(t.projectId, t.contactId),
    index("conversations_project_id").on(t.projectId, t.id),
    // The inbox views: mine / unassigned / assignee=<id>, and needs_person, each newest first.
    index("conversations_project_assignee").on(t.projectId, t.assigneeUserId, t.id),
    index("conversations_project_handoff").on(t.projectId, t.handoffStatus, t.id),
  ],
);
