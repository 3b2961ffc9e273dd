import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { SandboxLogLine } from "@/lib/ports/sandbox/types";
import { at, createdAt, updatedAt } from "./columns";
import { projects } from "./projects";

/**
 * A hosted function (docs/spec/service-spec.md "Hosted function", docs/spec/decisions.md "Hosted
 * functions"). What runs is the active version: a deploy that fails changes nothing, and a rollback
 * only moves active_version_id.
 */
export const hostedFunctions = pgTable(
  "hosted_functions",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    triggerType: text("trigger_type", { enum: ["KEYWORD", "WELCOME", "ANY_MESSAGE"] }).notNull(),
    runtime: text("runtime", { enum: ["PLAIN", "WFP"] }).notNull(),
    scriptName: text("script_name").notNull(),
    activeVersionId: text("active_version_id"),
    exposeAsMcpTool: boolean("expose_as_mcp_tool").notNull().default(false),
    inputSchema: jsonb("input_schema").$type<Record<string, unknown>>(),
    isActive: boolean("is_active").notNull().default(true),
    lastDeployedAt: at("last_deployed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("hosted_functions_project_slug").on(t.projectId, t.slug), index("hosted_functions_project_id").on(t.projectId, t.id)],
);

/** Every successful deploy: immutable; `code` is what the sandbox runs (types stripped), `source` what the author wrote. */
export const functionVersions = pgTable(
  "function_versions",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    functionId: text("function_id")
      .notNull()
      .references(() => hostedFunctions.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    source: text("source").notNull(),
    code: text("code").notNull(),
    /** The transpiler's source map (JSON), so a runtime error's line:column points into `source`. */
    sourceMap: text("source_map"),
    runtime: text("runtime", { enum: ["PLAIN", "WFP"] }).notNull(),
    bytes: integer("bytes").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("function_versions_number").on(t.functionId, t.number), index("function_versions_function").on(t.projectId, t.functionId, t.id)],
);

/**
 * The function's saved draft: code kept between visits that runs nowhere until it is deployed (at
 * most one per function). `base_version_id` is the version that was live when it was saved.
 */
export const functionDrafts = pgTable("function_drafts", {
  functionId: text("function_id")
    .primaryKey()
    .references(() => hostedFunctions.id, { onDelete: "cascade" }),
  projectId: text("project_id")
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" }),
  source: text("source").notNull(),
  bytes: integer("bytes").notNull(),
  baseVersionId: text("base_version_id"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Write-only secrets: sealed at rest (lib/crypto/secrets.ts), only names ever leave the server. */
export const functionSecrets = pgTable(
  "function_secrets",
  {
    functionId: text("function_id")
      .notNull()
      .references(() => hostedFunctions.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    sealedValue: text("sealed_value").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.functionId, t.name] })],
);

/** env.KV: one key space per function. */
export const functionKv = pgTable(
  "function_kv",
  {
    functionId: text("function_id")
      .notNull()
      .references(() => hostedFunctions.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    value: text("value").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.functionId, t.key] })],
);

/** Every run, whatever started it (test, invoke, automation, agent tool, MCP tool). Kept 7 days. */
export const functionInvocations = pgTable(
  "function_invocations",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    functionId: text("function_id")
      .notNull()
      .references(() => hostedFunctions.id, { onDelete: "cascade" }),
    versionId: text("version_id"),
    eventType: text("event_type", { enum: ["test", "invoke", "automation", "agent_tool", "mcp_tool"] }).notNull(),
    status: text("status", { enum: ["ok", "error"] }).notNull(),
    cpuMs: integer("cpu_ms"),
    subRequests: integer("sub_requests"),
    durationMs: integer("duration_ms"),
    error: text("error"),
    logs: jsonb("logs").$type<SandboxLogLine[]>().notNull(),
    input: jsonb("input"),
    result: jsonb("result"),
    resultBytes: bigint("result_bytes", { mode: "number" }),
    startedAt: at("started_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("function_invocations_function").on(t.projectId, t.functionId, t.id), index("function_invocations_started").on(t.startedAt)],
);
