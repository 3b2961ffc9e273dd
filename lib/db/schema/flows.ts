import { sql } from "drizzle-orm";
import { index, integer, json, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { FieldSchemaItem, FlowFinding } from "@/lib/domain/flows/flow-json/types";
import { at, createdAt, updatedAt } from "./columns";
import { projects } from "./projects";

/**
 * A Flow as authored (draft or Flow JSON, the compiled JSON, our findings) and its provider state.
 * What sends use is the published version (flow_versions), so editing a PUBLISHED flow never changes
 * what customers open until the next publish.
 */
export const flows = pgTable(
  "flows",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    configKey: text("config_key"),
    locale: text("locale"),
    name: text("name").notNull(),
    description: text("description"),
    status: text("status", { enum: ["DRAFT", "PUBLISHED", "DEPRECATED"] }).notNull(),
    metaStatus: text("meta_status"),
    metaStatusReason: text("meta_status_reason"),
    validationErrors: jsonb("validation_errors").$type<FlowFinding[] | Record<string, unknown>[]>(),
    runtimeMode: text("runtime_mode", { enum: ["STATIC", "DATA_EXCHANGE"] }).notNull(),
    dataExchangeUrl: text("data_exchange_url"),
    /** What the author saved: exactly one of draft / source_flow_json. json, not jsonb: the author's key order is kept. */
    draft: json("draft").$type<Record<string, unknown>>(),
    sourceFlowJson: json("source_flow_json").$type<Record<string, unknown>>(),
    /** The Flow JSON of the current edit (compiled from the draft, or the given JSON), null when it could not be compiled. */
    flowJson: json("flow_json").$type<Record<string, unknown>>(),
    fieldSchema: jsonb("field_schema").$type<FieldSchemaItem[]>(),
    publishedVersion: integer("published_version"),
    metaFlowId: text("meta_flow_id"),
    metaWabaId: text("meta_waba_id"),
    /** The channel whose business account the flow is published under. */
    publishChannelId: text("publish_channel_id"),
    /** The edit a running publish job sends to the provider (a snapshot, so a save meanwhile is not half-published). */
    publishingFlowJson: json("publishing_flow_json").$type<Record<string, unknown>>(),
    publishingFieldSchema: jsonb("publishing_field_schema").$type<FieldSchemaItem[]>(),
    /** Bumped by every save: has_unpublished_changes = the published version was not cut from this revision. */
    revision: integer("revision").notNull().default(1),
    publishedRevision: integer("published_revision"),
    lastSyncedAt: at("last_synced_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("flows_project_id").on(t.projectId, t.id),
    uniqueIndex("flows_project_key_locale")
      .on(t.projectId, t.configKey, sql`coalesce(${t.locale}, '')`)
      // A deprecated flow gives its (config_key, locale) back: its replacement may take them.
      .where(sql`${t.configKey} is not null and ${t.status} <> 'DEPRECATED'`),
    index("flows_meta_flow_id").on(t.metaFlowId),
  ],
);

/** Every published version: sends and completions use the version the dispatch was made with. */
export const flowVersions = pgTable(
  "flow_versions",
  {
    flowId: text("flow_id")
      .notNull()
      .references(() => flows.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    flowJson: json("flow_json").$type<Record<string, unknown>>().notNull(),
    fieldSchema: jsonb("field_schema").$type<FieldSchemaItem[]>().notNull(),
    metaFlowId: text("meta_flow_id").notNull(),
    metaWabaId: text("meta_waba_id").notNull(),
    publishedAt: at("published_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.flowId, t.version] }), index("flow_versions_meta_flow_id").on(t.metaFlowId)],
);

/**
 * A published version published again under another business account, so a channel of that account
 * can send it: a project that owns a number publishes there, and its sandbox testers are reached
 * through the shared sandbox, whose business account is the service's (docs/api-decisions.md "Flows":
 * "Sending through another business account").
 */
export const flowVersionCopies = pgTable(
  "flow_version_copies",
  {
    flowId: text("flow_id")
      .notNull()
      .references(() => flows.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    metaWabaId: text("meta_waba_id").notNull(),
    metaFlowId: text("meta_flow_id").notNull(),
    /** The channel whose business account and token it was published with. */
    channelId: text("channel_id").notNull(),
    publishedAt: at("published_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.flowId, t.version, t.metaWabaId] })],
);

export const flowDispatches = pgTable(
  "flow_dispatches",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    flowId: text("flow_id")
      .notNull()
      .references(() => flows.id, { onDelete: "cascade" }),
    flowVersion: integer("flow_version").notNull(),
    flowToken: text("flow_token").notNull(),
    channelId: text("channel_id").notNull(),
    conversationId: text("conversation_id"),
    contactId: text("contact_id"),
    to: text("to"),
    messageId: text("message_id"),
    locale: text("locale"),
    status: text("status", { enum: ["SENT", "COMPLETED", "EXPIRED"] }).notNull(),
    idempotencyKey: text("idempotency_key"),
    completedAt: at("completed_at"),
    expiresAt: at("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("flow_dispatches_token").on(t.flowToken),
    index("flow_dispatches_flow").on(t.projectId, t.flowId, t.id),
    index("flow_dispatches_idempotency").on(t.projectId, t.idempotencyKey),
    index("flow_dispatches_expiry").on(t.status, t.expiresAt),
  ],
);

export const flowSubmissions = pgTable(
  "flow_submissions",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    flowId: text("flow_id")
      .notNull()
      .references(() => flows.id, { onDelete: "cascade" }),
    dispatchId: text("dispatch_id").notNull(),
    flowToken: text("flow_token").notNull(),
    conversationId: text("conversation_id"),
    contactId: text("contact_id"),
    from: text("from"),
    messageId: text("message_id"),
    status: text("status", { enum: ["RECEIVED", "VALIDATED", "REJECTED", "FORWARDED"] }).notNull(),
    submission: jsonb("submission").$type<Record<string, unknown>>().notNull(),
    errors: jsonb("errors").$type<Record<string, unknown>[]>(),
    eventId: text("event_id"),
    createdAt: createdAt(),
  },
  // One submission per flow_token: a provider retry or a second completion makes nothing new.
  (t) => [uniqueIndex("flow_submissions_token").on(t.flowToken), index("flow_submissions_flow").on(t.projectId, t.flowId, t.id)],
);
