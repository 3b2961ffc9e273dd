import { sql } from "drizzle-orm";
import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt, updatedAt } from "./columns";
import { projects } from "./projects";
import { events } from "./events";

/**
 * One delivery of one event to the project's webhook: retried on the schedule until it succeeds,
 * gets 410, or runs out of attempts. A redelivery is a new row pointing at the same event, so the
 * receiver sees the same event id (x-svc-delivery / webhook-id) every time.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    /** pending (an attempt is scheduled), succeeded, failed (gave up or 410), paused (endpoint paused). */
    status: text("status", { enum: ["pending", "succeeded", "failed", "paused"] }).notNull(),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: at("next_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    /** Why the delivery exists: the event itself, an API/dashboard redelivery, or a replay. */
    trigger: text("trigger", { enum: ["event", "redeliver", "replay"] })
      .notNull()
      .default("event"),
    completedAt: at("completed_at"),
    /**
     * Set while a worker attempts the delivery in its own process, with no queue job behind it
     * (lib/domain/webhooks/direct.ts): past this time with the delivery still pending and the lease
     * still set, the worker is presumed dead and the lease sweep gives the attempt to a job.
     */
    leaseExpiresAt: at("lease_expires_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("webhook_deliveries_project_id").on(t.projectId, t.id),
    index("webhook_deliveries_project_status").on(t.projectId, t.status),
    index("webhook_deliveries_event").on(t.eventId),
    // Only leased pending deliveries: the sweep reads a handful of rows however many deliveries exist.
    index("webhook_deliveries_lease")
      .on(t.leaseExpiresAt)
      .where(sql`${t.status} = 'pending' and ${t.leaseExpiresAt} is not null`),
  ],
);

/** Every attempt, as the receiver answered it. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    projectId: text("project_id").notNull(),
    attemptNumber: integer("attempt_number").notNull(),
    url: text("url").notNull(),
    startedAt: at("started_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    statusCode: integer("status_code"),
    /** Transport-level failure: timeout, refused connection, blocked address, ... */
    error: text("error"),
    /** The first 2 KB of the response body. */
    responseExcerpt: text("response_excerpt"),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_attempts_delivery").on(t.deliveryId, t.attemptNumber)],
);
