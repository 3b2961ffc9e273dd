import { index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { channels } from "./channels";
import { projects } from "./projects";

export const BUSINESS_AGENT_STATUSES = ["DRAFT", "PROVISIONING", "ACTIVE", "DISABLED", "ERROR"] as const;
export const CONNECTOR_TYPES = ["API", "FLOWS", "FUNCTIONS", "CUSTOM"] as const;
export const TOOL_BACKING_TYPES = ["FLOW", "API_ENDPOINT", "NOOP", "HOSTED_FUNCTION"] as const;
export const THREAD_OWNERS = ["PROVIDER_AGENT", "SERVICE", "BUSINESS_INBOX"] as const;

/**
 * A business agent (service-spec "Business agent family", decisions.md "Business agents"): one per
 * (project, channel) — the shared sandbox channel carries one agent per joined project. `settings`
 * keeps every key of ApplyRequest / SettingsRequest, extra keys included; `skills` is the skills list
 * as PUT /business-agents/{id}/skills last wrote it.
 */
export const businessAgents = pgTable(
  "business_agents",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    channelId: text("channel_id")
      .notNull()
      .references(() => channels.id, { onDelete: "cascade" }),
    metaAgentId: text("meta_agent_id"),
    status: text("status", { enum: BUSINESS_AGENT_STATUSES }).notNull(),
    settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default({}),
    skills: jsonb("skills").$type<Record<string, unknown>[]>().notNull().default([]),
    eligibility: jsonb("eligibility").$type<Record<string, unknown> | null>(),
    errorMessage: text("error_message"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("business_agents_project_channel").on(t.projectId, t.channelId), index("business_agents_project_id").on(t.projectId, t.id)],
);

/** A connector of an agent; an API connector's secret is sealed inside `sealed_secret`, never in `config`. */
export const businessAgentConnectors = pgTable(
  "business_agent_connectors",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    businessAgentId: text("business_agent_id")
      .notNull()
      .references(() => businessAgents.id, { onDelete: "cascade" }),
    metaConnectorId: text("meta_connector_id"),
    /** Config-as-code's key for the connector, null when created through the API. */
    configKey: text("config_key"),
    name: text("name").notNull(),
    type: text("type", { enum: CONNECTOR_TYPES }).notNull(),
    config: jsonb("config").$type<Record<string, unknown> | null>(),
    sealedSecret: text("sealed_secret"),
    status: text("status", { enum: ["ACTIVE", "DISABLED"] }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("business_agent_connectors_agent").on(t.projectId, t.businessAgentId, t.id)],
);

/** A tool of a connector; its name is unique per agent (business_agent_id is kept here for that index). */
export const businessAgentTools = pgTable(
  "business_agent_tools",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    businessAgentId: text("business_agent_id")
      .notNull()
      .references(() => businessAgents.id, { onDelete: "cascade" }),
    connectorId: text("connector_id")
      .notNull()
      .references(() => businessAgentConnectors.id, { onDelete: "cascade" }),
    metaToolId: text("meta_tool_id"),
    name: text("name").notNull(),
    description: text("description"),
    backingType: text("backing_type", { enum: TOOL_BACKING_TYPES }).notNull(),
    backingFlowId: text("backing_flow_id"),
    backingFunctionId: text("backing_function_id"),
    inputSchema: jsonb("input_schema").$type<Record<string, unknown> | null>(),
    config: jsonb("config").$type<Record<string, unknown> | null>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("business_agent_tools_agent_name").on(t.businessAgentId, t.name), index("business_agent_tools_connector").on(t.connectorId, t.id)],
);

/** Who owns a customer's thread: one row per (project, channel, contact), written on the first take/pass. */
export const threadControlStates = pgTable(
  "thread_control_states",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    channelId: text("channel_id")
      .notNull()
      .references(() => channels.id, { onDelete: "cascade" }),
    contactId: text("contact_id").notNull(),
    businessAgentId: text("business_agent_id"),
    owner: text("owner", { enum: THREAD_OWNERS }).notNull(),
    reason: text("reason"),
    metaThreadId: text("meta_thread_id"),
    metaResult: jsonb("meta_result").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("thread_control_states_thread").on(t.projectId, t.channelId, t.contactId)],
);
