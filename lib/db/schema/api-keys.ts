import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt } from "./columns";
import { organizations } from "./organizations";
import { projects } from "./projects";

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
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
