import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, createdAt, updatedAt } from "./columns";

/** A plan sets the per-key limits (decisions.md "Plans and limits"); free and pro are seeded by migration. */
export const plans = pgTable("plans", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  requestsPerWindow: integer("requests_per_window").notNull(),
  windowSeconds: integer("window_seconds").notNull(),
  monthlyRequests: integer("monthly_requests").notNull(),
  mediaRetentionSeconds: integer("media_retention_seconds").notNull(),
  createdAt: createdAt(),
});

export const organizations = pgTable("organizations", {
  id: text("id").primaryKey(),
  name: text("name"),
  planId: text("plan_id").notNull().references(() => plans.id).default("free"),
  platformBEnabled: boolean("platform_b_enabled").notNull().default(false),
  platformCEnabled: boolean("platform_c_enabled").notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Operators: people who sign in to the dashboard. */
export const users = pgTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name"),
  passwordHash: text("password_hash"),
  createdAt: createdAt(),
});

export const memberships = pgTable(
  "memberships",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["owner", "admin", "developer", "viewer"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("memberships_org_user").on(t.organizationId, t.userId)],
);

export const projects = pgTable(
  "projects",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description"),
    routingMode: text("routing_mode", { enum: ["EXTERNAL", "FLOWS", "AGENT"] }).notNull().default("EXTERNAL"),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("projects_org").on(t.organizationId)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id, { onDelete: "cascade" }),
    projectId: text("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["secret", "publishable"] }).notNull(),
    name: text("name"),
    /** SHA-256 of the full key; the key itself is shown once and never stored. */
    keyHash: text("key_hash").notNull().unique(),
    prefix: text("prefix").notNull(),
    display: text("display").notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    /** Publishable keys only: browser origins allowed by CORS; empty means any origin. */
    allowedOrigins: jsonb("allowed_origins").$type<string[]>().notNull().default([]),
    createdByUserId: text("created_by_user_id"),
    lastUsedAt: at("last_used_at"),
    revokedAt: at("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [index("api_keys_project").on(t.projectId)],
);

/** An open invitation to join an organization; the link's token is shown once and stored as a SHA-256 hash. */
export const invitations = pgTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role", { enum: ["owner", "admin", "developer", "viewer"] }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedByUserId: text("invited_by_user_id"),
    expiresAt: at("expires_at").notNull(),
    acceptedAt: at("accepted_at"),
    revokedAt: at("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [index("invitations_org").on(t.organizationId)],
);
