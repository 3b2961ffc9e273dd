import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { organizations } from "./organizations";
import { projects } from "./projects";

export const channels = pgTable(
  "channels",
  {
    id: text("id").primaryKey(),
    /** Null only for the shared sandbox channel, which every organization can use. */
    organizationId: text("organization_id").references(() => organizations.id, { onDelete: "cascade" }),
    /** The project that connected the channel: where its inbound goes. Null for the sandbox. */
    projectId: text("project_id").references(() => projects.id, { onDelete: "set null" }),
    platform: text("platform", { enum: ["PLATFORM_A", "PLATFORM_B", "PLATFORM_C", "SMS", "PLATFORM_D", "EMAIL"] }).notNull(),
    status: text("status", { enum: ["connected", "pending", "disconnected", "error"] }).notNull(),
    displayName: text("display_name"),
    phoneNumber: text("phone_number"),
    /** The channel's own routing; null: it follows its project's routing_mode (lib/shared/routing-modes.ts). */
    routingMode: text("routing_mode", { enum: ["NONE", "FLOWS", "EXTERNAL"] }).default("EXTERNAL"),
    numberMode: text("number_mode", { enum: ["sandbox", "dedicated"] }).notNull(),
    isSandbox: boolean("is_sandbox").notNull().default(false),
    /** The provider-side sender id inbound payloads are routed by (phone_number_id, account_id or page_id). */
    providerSenderId: text("provider_sender_id"),
    businessAccountId: text("business_account_id"),
    /** Sealed JSON of the credentials given at connect time; never returned. */
    credentialsSealed: text("credentials_sealed"),
    businessVerificationStatus: text("business_verification_status"),
    accountReviewStatus: text("account_review_status"),
    phoneNumberStatus: text("phone_number_status"),
    paymentStatus: text("payment_status"),
    /**
     * When the four statuses above were last asked of the provider (at connect, then again by readiness
     * once stale: lib/domain/channels/provider-statuses.ts); null when never asked.
     */
    /** Messages per second the provider allows this number (PLATFORM_A throughput level); null: the 80 default. */
    throughputMps: integer("throughput_mps"),
    providerStatusesCheckedAt: timestamp("provider_statuses_checked_at", { withTimezone: true, mode: "date" }),
    /** DATA_EXCHANGE Flows: the RSA-2048 key pair the provider encrypts endpoint calls for (PEM; the private key sealed). */
    flowPublicKey: text("flow_public_key"),
    flowPrivateKeySealed: text("flow_private_key_sealed"),
    /** When the public key was registered with the provider for this number. */
    flowKeyRegisteredAt: timestamp("flow_key_registered_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("channels_org").on(t.organizationId), uniqueIndex("channels_platform_sender").on(t.platform, t.providerSenderId)],
);
