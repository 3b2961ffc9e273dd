import { index, json, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, createdAt, updatedAt } from "./columns";
import { channels } from "./channels";
import { projects } from "./projects";

export const TEMPLATE_STATUSES = ["PENDING", "APPROVED", "REJECTED", "PAUSED", "DISABLED"] as const;

/**
 * A PLATFORM_A message template (docs/spec/service-spec.md "Template", docs/spec/decisions.md
 * "Templates"): what was submitted for review, and the review's outcome as the provider's webhook
 * reports it. The provider names a template by (business account, name, language); ours are unique
 * per channel.
 */
export const templates = pgTable(
  "templates",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    channelId: text("channel_id")
      .notNull()
      .references(() => channels.id, { onDelete: "cascade" }),
    metaTemplateId: text("meta_template_id"),
    name: text("name").notNull(),
    language: text("language").notNull(),
    category: text("category", { enum: ["UTILITY", "MARKETING", "AUTHENTICATION"] }).notNull(),
    parameterFormat: text("parameter_format", { enum: ["POSITIONAL", "NAMED"] }).notNull(),
    status: text("status", { enum: TEMPLATE_STATUSES }).notNull(),
    rejectionReason: text("rejection_reason"),
    /** As the caller sent them (json, not jsonb: key order kept); FLOW buttons still name our flow, not the provider's. */
    components: json("components").$type<Record<string, unknown>[]>().notNull(),
    submittedAt: at("submitted_at").notNull(),
    approvedAt: at("approved_at"),
    rejectedAt: at("rejected_at"),
    lastSyncedAt: at("last_synced_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("templates_project_id").on(t.projectId, t.id),
    uniqueIndex("templates_channel_name_language").on(t.channelId, t.name, t.language),
    index("templates_meta_template_id").on(t.metaTemplateId),
  ],
);
