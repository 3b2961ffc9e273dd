import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { projects } from "./projects";
import { channels } from "./channels";

/** Testers who joined a project on the shared sandbox by sending `join <join_code>`. */
export const sandboxParticipants = pgTable(
  "sandbox_participants",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    channelId: text("channel_id")
      .notNull()
      .references(() => channels.id, { onDelete: "cascade" }),
    /** The tester's platform address (wa_id / E.164 digits). */
    address: text("address").notNull(),
    joinedAt: createdAt(),
  },
  (t) => [uniqueIndex("sandbox_participants_channel_address").on(t.channelId, t.address), index("sandbox_participants_project").on(t.projectId)],
);
