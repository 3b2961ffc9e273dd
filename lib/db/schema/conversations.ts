import { boolean, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, createdAt, updatedAt } from "./columns";
import { projects } from "./projects";

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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("conversations_project_contact").on(t.projectId, t.contactId), index("conversations_project_id").on(t.projectId, t.id)],
);
