import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/** A plan sets the per-key limits (docs/spec/decisions.md "Plans and limits"); free and pro are seeded by migration. */
export const plans = pgTable("plans", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  requestsPerWindow: integer("requests_per_window").notNull(),
  windowSeconds: integer("window_seconds").notNull(),
  monthlyRequests: integer("monthly_requests").notNull(),
  mediaRetentionSeconds: integer("media_retention_seconds").notNull(),
  createdAt: createdAt(),
});
