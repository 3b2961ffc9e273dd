import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { projects } from "./projects";

/**
 * Who did what to a project's keys and configuration (docs/spec/decisions.md "Developer tools"):
 * written in the same transaction as the action it records, kept 90 days.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").notNull(),
    actorType: text("actor_type", { enum: ["api_key", "user", "system"] }).notNull(),
    actorId: text("actor_id"),
    /** How the actor read at the time (a key's display, an operator's email): kept when the actor is gone. */
    actorDisplay: text("actor_display").notNull(),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    /** Extra facts about the action (scopes granted, config version, ...); never secrets. */
    details: jsonb("details").$type<Record<string, unknown>>(),
    ip: text("ip"),
    createdAt: createdAt(),
  },
  (t) => [index("audit_events_project_id").on(t.projectId, t.id), index("audit_events_created_at").on(t.createdAt)],
);
