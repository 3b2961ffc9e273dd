import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { MessageFailure } from "@/lib/ports/provider/types";
import { at, createdAt, updatedAt } from "./columns";
import { organizations, projects } from "./tenancy";
import { channels } from "./channels";

/**
 * A person's identity within an organization: one row per phone number (or per platform user id
 * when no number is known), so a contact id is stable per number across the organization's projects.
 */
export const contactIdentities = pgTable(
  "contact_identities",
  {
    id: text("id").primaryKey(),
    /** The contact id this identity resolves to; several identities (old and new number) can share one. */
    contactId: text("contact_id").notNull(),
    organizationId: text("organization_id").notNull().references(() => organizations.id, { onDelete: "cascade" }),
    /** "phone" (E.164 digits, platform-independent) or "user:<PLATFORM>" (platform-scoped user id). */
    kind: text("kind").notNull(),
    value: text("value").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("contact_identities_org_kind_value").on(t.organizationId, t.kind, t.value), index("contact_identities_contact").on(t.contactId)],
);

/** A contact as one project knows it: same id as its identity, the project's own attributes. */
export const contacts = pgTable(
  "contacts",
  {
    projectId: text("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    organizationId: text("organization_id").notNull(),
    channelId: text("channel_id").notNull().references(() => channels.id),
    platform: text("platform").notNull(),
    phone: text("phone"),
    userId: text("user_id"),
    parentUserId: text("parent_user_id"),
    username: text("username"),
    name: text("name"),
    referenceId: text("reference_id"),
    preferredLanguage: text("preferred_language"),
    status: text("status", { enum: ["active", "erased"] }).notNull().default("active"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] }), index("contacts_project_id_desc").on(t.projectId, t.id)],
);

/** Opt-in / enrollment records: what lets a business start a conversation (require_opt_in). */
export const optIns = pgTable(
  "opt_ins",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    contactId: text("contact_id").notNull(),
    status: text("status", { enum: ["active", "revoked"] }).notNull(),
    source: text("source").notNull(),
    optedInAt: at("opted_in_at").notNull(),
    revokedAt: at("revoked_at"),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("opt_ins_project_contact").on(t.projectId, t.contactId)],
);

export const conversations = pgTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    contactId: text("contact_id").notNull(),
    lastChannelId: text("last_channel_id"),
    isActive: boolean("is_active").notNull().default(true),
    handoffStatus: text("handoff_status", { enum: ["AI_ACTIVE", "HUMAN_ACTIVE"] }).notNull().default("AI_ACTIVE"),
    handoffReason: text("handoff_reason"),
    handoffAt: at("handoff_at"),
    startedAt: at("started_at").notNull(),
    lastMessageAt: at("last_message_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("conversations_project_contact").on(t.projectId, t.contactId), index("conversations_project_id").on(t.projectId, t.id)],
);

export const messages = pgTable(
  "messages",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
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
    /** Inbound: the provider's own timestamp; the 24-hour window is measured from it. */
    providerTimestamp: at("provider_timestamp"),
    timestamp: at("timestamp").notNull(),
    editedAt: at("edited_at"),
    deletedAt: at("deleted_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("messages_channel_platform_id").on(t.channelId, t.platformMessageId),
    index("messages_project_idempotency").on(t.projectId, t.idempotencyKey),
    index("messages_conversation_id").on(t.conversationId, t.id),
    index("messages_window").on(t.conversationId, t.channelId, t.direction, t.providerTimestamp),
  ],
);

/**
 * Every event, stored with its wire payload. `deliver` says whether routing sends it to the project's
 * webhook (message.received only under EXTERNAL routing and without handoff; other events always).
 */
export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
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
