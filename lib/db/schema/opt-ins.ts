import { pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, updatedAt } from "./columns";
import { projects } from "./projects";

/** Opt-in / enrollment records: what lets a business start a conversation (require_opt_in). */
export const optIns = pgTable(
  "opt_ins",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    contactId: text("contact_id").notNull(),
    status: text("status", { enum: ["active", "revoked"] }).notNull(),
    source: text("source").notNull(),
    optedInAt: at("opted_in_at").notNull(),
    revokedAt: at("revoked_at"),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("opt_ins_project_contact").on(t.projectId, t.contactId)],
);
