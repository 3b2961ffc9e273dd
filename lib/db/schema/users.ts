import { pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/** Operators: people who sign in to the dashboard. */
export const users = pgTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name"),
  passwordHash: text("password_hash"),
  createdAt: createdAt(),
});
