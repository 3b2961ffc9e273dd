import { boolean, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt, updatedAt } from "./columns";
import { organizations } from "./organizations";

export const projects = pgTable(
  "projects",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description"),
    routingMode: text("routing_mode", { enum: ["EXTERNAL", "FLOWS", "AGENT"] })
      .notNull()
      .default("EXTERNAL"),
    joinCode: text("join_code").notNull().unique(),
    requireOptIn: boolean("require_opt_in").notNull().default(true),
    webhookUrl: text("webhook_url"),
    /** Sealed (lib/crypto/secrets.ts); never stored in plain text. */
    webhookSecretSealed: text("webhook_secret_sealed"),
    /** After a rotation the previous secret keeps signing for 24 h so receivers can roll over. */
    previousWebhookSecretSealed: text("previous_webhook_secret_sealed"),
    previousWebhookSecretExpiresAt: at("previous_webhook_secret_expires_at"),
    /** Since when every delivery attempt has failed (null while the endpoint works). */
    webhookFailingSince: at("webhook_failing_since"),
    /** Set after 5 days of continuous failure: no attempts until the webhook is updated. */
    webhookPausedAt: at("webhook_paused_at"),
    /** The project's dedicated channel, when one is connected. */
    channelId: text("channel_id"),
    /**
     * Bumped in the transaction of every change to the project's hosted functions (create, PATCH,
     * deploy, rollback, secrets, delete; lib/domain/functions). Read with the API key on every
     * request, it lets a process reuse the runnable function it loaded while the number is unchanged
     * (lib/domain/functions/runnable-cache.ts).
     */
    functionsRevision: integer("functions_revision").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("projects_org").on(t.organizationId)],
);
