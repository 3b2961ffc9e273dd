import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt, updatedAt } from "./columns";
import { projects } from "./projects";

export const REGISTRATION_INTENT_STATUSES = ["PENDING", "COMPLETED", "EXPIRED"] as const;

/**
 * A link a customer taps to opt in (and, on the shared sandbox, to join the project):
 * docs/spec/decisions.md "Registration intents". The token in the prefilled text is what an inbound
 * message is matched by.
 */
export const registrationIntents = pgTable(
  "registration_intents",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").notNull(),
    /** The channel whose number the link opens: the project's dedicated PLATFORM_A channel (live) or the sandbox (test). */
    channelId: text("channel_id").notNull(),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    token: text("token").notNull().unique(),
    status: text("status", { enum: REGISTRATION_INTENT_STATUSES }).notNull(),
    customerReference: text("customer_reference").notNull(),
    prefilledMessage: text("prefilled_message").notNull(),
    whatsappNumber: text("whatsapp_number").notNull(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>(),
    /** The key that minted it (secret or publishable). */
    apiKeyId: text("api_key_id"),
    expiresAt: at("expires_at").notNull(),
    completedAt: at("completed_at"),
    contactId: text("contact_id"),
    /** The inbound message that completed it. */
    messageId: text("message_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("registration_intents_project_id").on(t.projectId, t.id), index("registration_intents_contact").on(t.projectId, t.contactId)],
);
