import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { at } from "./columns";

/** Durable counters for rate-limiter-flexible's Drizzle store (monthly quota when REDIS_URL is unset). */
export const rateLimitCounters = pgTable("rate_limit_counters", {
  key: text("key").primaryKey(),
  points: integer("points").notNull().default(0),
  expire: at("expire"),
});
