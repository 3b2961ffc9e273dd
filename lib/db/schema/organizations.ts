import { boolean, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { plans } from "./plans";

export const organizations = pgTable("organizations", {
  id: text("id").primaryKey(),
  name: text("name"),
  planId: text("plan_id")
    .notNull()
    .references(() => plans.id)
    .default("free"),
  platformBEnabled: boolean("platform_b_enabled").notNull().default(false),
  platformCEnabled: boolean("platform_c_enabled").notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
