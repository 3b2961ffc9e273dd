import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { at } from "./columns";

/** Raw provider webhook envelopes, stored before any parsing so nothing received is ever lost. */
export const inboundWebhooks = pgTable("inbound_webhooks", {
  id: text("id").primaryKey(),
  platform: text("platform").notNull(),
  body: text("body").notNull(),
  receivedAt: at("received_at").notNull(),
  processedAt: at("processed_at"),
  error: text("error"),
  /** Runs of the ingest job that failed (some item could not be applied). */
  failedAttempts: integer("failed_attempts").notNull().default(0),
  /** Set when the job gave up (its last retry failed): the envelope waits here, listed by `svc ingest dead-letters`. */
  deadLetteredAt: at("dead_lettered_at"),
});
