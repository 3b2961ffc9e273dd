import { timestamp } from "drizzle-orm/pg-core";

/** Timestamps are timestamptz in "date" mode: string mode differs in precision between PGlite and Postgres. */
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const createdAt = () => at("created_at").notNull().defaultNow();
export const updatedAt = () => at("updated_at").notNull().defaultNow();
