import { defineRoute } from "@/lib/api/route";
import { ConfigApply, ConfigDiff, ConfigDocument, ConfigDocumentInput, ConfigJsonSchema, ConfigValidation } from "@/lib/api/schemas/config";
import { applyConfig } from "@/lib/domain/config/apply";
import { exportConfig } from "@/lib/domain/config/export";
import { configJsonSchema } from "@/lib/domain/config/json-schema";
import { diffConfig, validateConfig } from "@/lib/domain/config/validate";

const tag = "Config";
/** A document of a few hundred flows is larger than the usual 1 MiB body. */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

export const configRoutes = [
  defineRoute({
    method: "GET",
    path: "/config",
    operationId: "exportConfig",
    summary: "Export the project as a config-as-code document",
    description:
      "The project's settings, webhook URL, config-owned flows (those with a config_key) and automations, in a stable key order: applying it back changes nothing (all `unchanged`).",
    tag,
    scope: "config:read",
    response: ConfigDocument,
    handler: ({ ctx }) => exportConfig(ctx),
  }),
  defineRoute({
    method: "GET",
    path: "/config/schema.json",
    operationId: "getConfigSchema",
    summary: "The config document's JSON Schema (2020-12)",
    description: "Generated from the schema the API parses documents with; its description names the rules only POST /config/validate checks.",
    tag,
    scope: "config:read",
    response: ConfigJsonSchema,
    handler: async ({ ctx }) => configJsonSchema(ctx.settings),
  }),
  defineRoute({
    method: "POST",
    path: "/config/validate",
    operationId: "validateConfig",
    summary: "Validate a config document",
    description:
      "The body is the document. Schema, unique keys, references (send_flow, run_function) and project_id are checked; `issues` hold errors and warnings. A project_id of another project → 422 config_project_mismatch.",
    tag,
    scope: "config:read",
    audit: { exempt: "judges a document and writes nothing" },
    body: ConfigDocumentInput,
    idempotency: "off",
    maxBodyBytes: MAX_CONFIG_BYTES,
    response: ConfigValidation,
    handler: ({ ctx, body }) => validateConfig(ctx, body),
  }),
  defineRoute({
    method: "POST",
    path: "/config/diff",
    operationId: "diffConfig",
    summary: "What applying a config document would change",
    description:
      "Nothing is written. One item per project, webhook, flow (key, or key@locale) and automation: create, update (with `changes`), delete (config-owned entities the document no longer lists) or unchanged.",
    tag,
    scope: "config:read",
    audit: { exempt: "compares a document with the project and writes nothing" },
    body: ConfigDocumentInput,
    idempotency: "off",
    maxBodyBytes: MAX_CONFIG_BYTES,
    response: ConfigDiff,
    handler: ({ ctx, body }) => diffConfig(ctx, body),
  }),
  defineRoute({
    method: "POST",
    path: "/config/apply",
    operationId: "applyConfig",
    summary: "Apply a config document",
    description:
      "One transaction: any error issue → 422 config_invalid (with the issues) and nothing is written. Flows are saved, never published; a config-owned flow no longer listed is deleted, or deprecated when it was published (a warning says so). Applying the same document again gives only `unchanged`.",
    tag,
    scope: "config:write",
    audit: [
      "config.applied",
      "project.webhook_url_changed",
      "project.routing_changed",
      "business_agent.enabled",
      "business_agent.disabled",
      "connector.created",
      "connector.updated",
      "connector.deleted",
    ],
    body: ConfigDocumentInput,
    maxBodyBytes: MAX_CONFIG_BYTES,
    response: ConfigApply,
    handler: ({ ctx, body }) => applyConfig(ctx, body),
  }),
];
