import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { MessageFailure } from "@/lib/ports/provider/types";
import { at, createdAt, updatedAt } from "./columns";
import { projects } from "./projects";

export const messages = pgTable(
  "messages",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id").notNull(),
    contactId: text("contact_id").notNull(),
    channelId: text("channel_id").notNull(),
    direction: text("direction", { enum: ["inbound", "outbound"] }).notNull(),
    type: text("type").notNull(),
    // Inbound messages are "delivered" (to the business) and "deleted" once revoked.
    status: text("status", { enum: ["queued", "sent", "delivered", "read", "failed", "deleted"] }).notNull(),
    content: text("content"),
    /** Outbound: the validated content; inbound: the normalised provider message. */
    body: jsonb("body").$type<Record<string, unknown>>().notNull(),
    platformMessageId: text("platform_message_id"),
    /** The recipient's platform address the provider was asked to send to (outbound). */
    recipient: text("recipient"),
    replyTo: text("reply_to"),
    failure: jsonb("failure").$type<MessageFailure>(),
    media: jsonb("media").$type<Record<string, unknown>>(),
    idempotencyKey: text("idempotency_key"),
    /** Outbound messages of a broadcast: their status callbacks move the broadcast's recipient too. */
    broadcastId: text("broadcast_id"),
    /**
     * Inbound: the channel's effective routing and whether handoff was on when the message arrived, the
     * facts ingest decided by whether automations evaluate it (lib/domain/automations/hook.ts), kept so
     * GET /messages/{id}/automations answers what happened then. Null on outbound and older messages.
     */
    arrivalRoutingMode: text("arrival_routing_mode", { enum: ["EXTERNAL", "FLOWS", "AGENT", "NONE"] }),
    arrivalHandoff: boolean("arrival_handoff"),
    /** Inbound: the provider's own timestamp; the 24-hour window is measured from it. */
    providerTimestamp: at("provider_timestamp"),
    timestamp: at("timestamp").notNull(),
    editedAt: at("edited_at"),
    deletedAt: at("deleted_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Only messages the provider has an id for: a queued message adds no entry (its id comes with the
    // provider's answer), so no query wades through one null entry per message ever queued.
    uniqueIndex("messages_channel_platform_id")
      .on(t.channelId, t.platformMessageId)
      .where(sql`${t.platformMessageId} is not null`),
    // Only messages sent with a key (every send has one; no customer message does): a customer's
    // message adds no entry, which its insert would otherwise write and no lookup ever reads.
    index("messages_project_idempotency")
      .on(t.projectId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    index("messages_conversation_id").on(t.conversationId, t.id),
    index("messages_window").on(t.conversationId, t.channelId, t.direction, t.providerTimestamp),
  ],
);
