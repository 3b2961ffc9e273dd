import { boolean, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { projects } from "./projects";

/**
 * Every event, stored with its wire payload. `deliver` says whether routing sends it to the project's
 * webhook (message.received only under EXTERNAL routing and without handoff; other events always).
 */
export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    deliver: boolean("deliver").notNull(),
    /** Why it was or was not routed to the webhook: external, flows, agent, none, handoff. */
    route: text("route").notNull(),
    /** Provider retries of calls and statuses must not make a second event. */
    dedupeKey: text("dedupe_key"),
    createdAt: createdAt(),
  },
  (t) => [index("events_project_id").on(t.projectId, t.id), uniqueIndex("events_project_dedupe").on(t.projectId, t.dedupeKey)],
);
