import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, createdAt, updatedAt } from "./columns";
import { channels } from "./channels";
import { projects } from "./projects";

export const BROADCAST_STATUSES = ["DRAFT", "SCHEDULED", "SENDING", "PAUSED", "COMPLETED", "CANCELLED", "FAILED"] as const;
export const BROADCAST_RECIPIENT_STATUSES = ["pending", "queued", "sent", "delivered", "read", "failed", "skipped"] as const;

/**
 * One template sent to many customers (docs/spec/decisions.md "Broadcasts"). The template's name and
 * language are kept beside its id so the broadcast still reads well after the template is deleted.
 */
export const broadcasts = pgTable(
  "broadcasts",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    channelId: text("channel_id")
      .notNull()
      .references(() => channels.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    templateId: text("template_id").notNull(),
    templateName: text("template_name").notNull(),
    templateLanguage: text("template_language").notNull(),
    status: text("status", { enum: BROADCAST_STATUSES }).notNull(),
    sendAt: at("send_at"),
    startedAt: at("started_at"),
    completedAt: at("completed_at"),
    pauseReason: text("pause_reason"),
    /** Bumped by every send / resume: a sender job of an older run sees the change and stops. */
    runGeneration: integer("run_generation").notNull().default(0),
    /**
     * The sender slice holding this run, and until when (lib/domain/broadcasts/lease.ts): renewed
     * while it sends; a SENDING run past it has lost its sender and is taken over (watchdog.ts).
     */
    senderLeaseHolder: text("sender_lease_holder"),
    senderLeaseUntil: at("sender_lease_until"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("broadcasts_project_id").on(t.projectId, t.id),
    index("broadcasts_template").on(t.templateId),
    index("broadcasts_sending_lease")
      .on(t.senderLeaseUntil)
      .where(sql`${t.status} = 'SENDING'`),
  ],
);

/** One recipient of a broadcast: its own template parameters, and the message it became. */
export const broadcastRecipients = pgTable(
  "broadcast_recipients",
  {
    id: text("id").primaryKey(),
    broadcastId: text("broadcast_id")
      .notNull()
      .references(() => broadcasts.id, { onDelete: "cascade" }),
    projectId: text("project_id").notNull(),
    /** The recipient's number as digits (E.164 without "+"). */
    to: text("to").notNull(),
    contactId: text("contact_id"),
    parameters: jsonb("parameters").$type<Record<string, string | number> | Record<string, unknown>[]>(),
    status: text("status", { enum: BROADCAST_RECIPIENT_STATUSES }).notNull(),
    skipReason: text("skip_reason"),
    messageId: text("message_id"),
    error: jsonb("error").$type<Record<string, unknown>>(),
    /** Throughput refusals (130429) of this recipient so far. */
    attempts: integer("attempts").notNull().default(0),
    /**
     * Set, and committed, just before its message is handed to the provider; cleared only when the
     * provider refused it (so it may be tried again). Set with no answer recorded after the sender is
     * gone: the outcome is unknown (docs/api-decisions.md "Broadcasts").
     */
    dispatchedAt: at("dispatched_at"),
    repliedAt: at("replied_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("broadcast_recipients_to").on(t.broadcastId, t.to),
    index("broadcast_recipients_status").on(t.broadcastId, t.status, t.id),
    index("broadcast_recipients_message").on(t.messageId),
    index("broadcast_recipients_contact").on(t.projectId, t.contactId),
  ],
);
