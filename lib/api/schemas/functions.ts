import { z } from "@/lib/api/zod";
import { PageQuery, Timestamp } from "@/lib/api/schemas/common";
import { FUNCTION_EVENT_TYPES, FUNCTION_RUNTIMES, FUNCTION_TRIGGER_TYPES } from "@/lib/shared/functions";

/**
 * Hosted functions on the wire (docs/spec/service-spec.md "Hosted function", docs/spec/decisions.md
 * "Hosted functions"). `source` is only on the single GET: lists stay small however big the code is.
 */

const TriggerType = z.enum(FUNCTION_TRIGGER_TYPES).openapi("FunctionTriggerType", {
  description: "The inbound trigger the function is written for; it shapes the test event.",
});
const Runtime = z.enum(FUNCTION_RUNTIMES).openapi("FunctionRuntime", {
  description:
    "Detected at deploy: PLAIN = `export default async function (event, ctx)` or `export async function handler`; WFP = `export default { async fetch(request, env, ctx) }`.",
});

const JsonSchemaObject = z.record(z.string(), z.unknown()).openapi("FunctionInputSchema", {
  description: "A JSON Schema (draft 2020-12 subset, type object) the invoke `arguments` are checked against.",
});

export const HostedFunction = z
  .object({
    object: z.literal("hosted_function"),
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    trigger_type: TriggerType,
    script_name: z.string().openapi({ description: "`<slug>-v<n>` of the active version; `<slug>-v0` before the first deploy." }),
    runtime: Runtime,
    active_version_id: z.string().nullable(),
    expose_as_mcp_tool: z.boolean(),
    input_schema: JsonSchemaObject.nullable(),
    is_active: z.boolean(),
    source: z.string().nullable().optional().openapi({ description: "The active version's source; only on GET /functions/{id}." }),
    last_deployed_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("HostedFunction");

const Slug = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z][a-z0-9-]*$/, "Lower-case letters, digits and '-', starting with a letter.");

export const FunctionCreateRequest = z
  .object({
    slug: Slug,
    name: z.string().trim().min(1).max(120),
    trigger_type: TriggerType,
  })
  .strict()
  .openapi("FunctionCreateRequest");

export const FunctionUpdateRequest = z
  .object({
    name: z.string().trim().min(1).max(120).optional(),
    expose_as_mcp_tool: z.boolean().optional(),
    is_active: z.boolean().optional(),
    input_schema: JsonSchemaObject.nullable().optional(),
  })
  .strict()
  .openapi("FunctionUpdateRequest");

export const FunctionDeployRequest = z
  .object({ source: z.string().min(1).max(400_000) })
  .strict()
  .openapi("FunctionDeployRequest");

export const FunctionDeployResponse = z
  .object({
    object: z.literal("function_deploy"),
    function_id: z.string(),
    status: z.enum(["ok", "error"]),
    version_id: z.string().nullable(),
    // A union, not .nullable(): zod-to-openapi writes a nullable registered enum as allOf [ref, {type:
    // [string, null]}], which no null satisfies (the ref); the union is anyOf [ref, null].
    runtime: z.union([Runtime, z.null()]),
    bytes: z.number().int(),
    diagnostics: z.array(z.string()).openapi({ description: '`"<line>:<column> <message>"`, positions in the source as sent.' }),
  })
  .openapi("FunctionDeployResponse");

export const FunctionDraftRequest = z
  .object({ source: z.string().min(1).max(400_000) })
  .strict()
  .openapi("FunctionDraftRequest");

export const FunctionDraft = z
  .object({
    object: z.literal("function_draft"),
    function_id: z.string(),
    source: z.string().nullable().openapi({ description: "The saved draft's code; null when no draft is saved (the live source is then the code to edit)." }),
    bytes: z.number().int().nullable().openapi({ description: "UTF-8 size of `source`; null without a draft." }),
    base_version_id: z.string().nullable().openapi({
      description:
        "The version that was live when the draft was saved (null before the first deploy, or without a draft): when it differs from active_version_id, the live code changed since.",
    }),
    updated_at: Timestamp.nullable().openapi({ description: "When the draft was last saved; null without a draft." }),
  })
  .openapi("FunctionDraft", { description: "Saved code that runs nowhere until it is deployed; at most one per function." });

const LogLine = z.object({ level: z.enum(["log", "info", "warn", "error", "debug"]), message: z.string(), at_ms: z.number() }).openapi("FunctionLogLine");

export const FunctionTestRequest = z
  .object({
    text: z.string().max(4000).optional(),
    contact: z
      .object({ id: z.string().min(1).max(200), phone: z.string().min(1).max(40), name: z.string().max(200).optional() })
      .strict()
      .optional(),
  })
  .strict()
  .openapi("FunctionTestRequest");

export const FunctionInvokeRequest = z
  .object({
    arguments: z.record(z.string(), z.unknown()).optional(),
    contact_id: z.string().min(1).max(200).optional(),
    contact_phone: z.string().min(1).max(40).optional(),
  })
  .strict()
  .openapi("FunctionInvokeRequest");

const runFields = {
  function_id: z.string(),
  invocation_id: z.string(),
  version_id: z.string(),
  status: z.enum(["ok", "error"]),
  result: z.unknown().openapi({ description: "The function's JSON result; null on error." }),
  error: z.string().nullable().openapi({ description: "Null on success; else starts with the code (cpu_limit_exceeded, ..., uncaught_exception: <message>)." }),
  logs: z.array(LogLine),
  cpu_ms: z.number().int(),
  sub_requests: z.number().int(),
  duration_ms: z.number().int(),
};

export const FunctionTestResponse = z.object({ object: z.literal("function_test"), ...runFields }).openapi("FunctionTestResponse");
export const FunctionInvokeResponse = z.object({ object: z.literal("function_invoke"), ...runFields }).openapi("FunctionInvokeResponse");

export const FunctionInvocation = z
  .object({
    object: z.literal("function_invocation"),
    id: z.string(),
    function_id: z.string(),
    version_id: z.string().nullable(),
    event_type: z.enum(FUNCTION_EVENT_TYPES),
    status: z.enum(["ok", "error"]),
    cpu_ms: z.number().int().nullable(),
    sub_requests: z.number().int().nullable(),
    duration_ms: z.number().int().nullable(),
    error: z.string().nullable(),
    logs: z.array(LogLine),
    input: z.unknown().openapi({ description: "The event the function received (secrets are never part of it)." }),
    result: z.unknown(),
    started_at: Timestamp,
  })
  .openapi("FunctionInvocation");

export const InvocationListQuery = PageQuery.extend({
  status: z.enum(["ok", "error"]).optional(),
  event_type: z.enum(FUNCTION_EVENT_TYPES).optional(),
});

export const FunctionVersion = z
  .object({
    object: z.literal("function_version"),
    id: z.string(),
    function_id: z.string(),
    number: z.number().int(),
    script_name: z.string(),
    runtime: Runtime,
    bytes: z.number().int(),
    is_active: z.boolean(),
    source: z.string().optional().openapi({ description: "With include=source." }),
    created_at: Timestamp,
  })
  .openapi("FunctionVersion");

export const VersionListQuery = PageQuery.extend({
  include: z.enum(["source"]).optional(),
});

export const FunctionRollbackRequest = z
  .object({ version_id: z.string().min(1).max(200) })
  .strict()
  .openapi("FunctionRollbackRequest");

export const FunctionSecretsRequest = z
  // Names are checked by the verb, which names each bad one (zod's record-key error would not).
  .record(z.string(), z.string().max(4096).nullable())
  .openapi("FunctionSecretsRequest", { description: '`{"NAME": "value"}` sets, `{"NAME": null}` deletes; at most 50 per function.' });

export const FunctionSecrets = z
  .object({
    object: z.literal("function_secrets"),
    function_id: z.string(),
    data: z.array(z.object({ name: z.string(), updated_at: Timestamp })),
  })
  .openapi("FunctionSecrets", { description: "Names only: values are write-only." });

export const FunctionDeleted = z.object({ object: z.literal("hosted_function"), id: z.string(), deleted: z.literal(true) }).openapi("FunctionDeleted");

export const FunctionListQuery = PageQuery.extend({
  trigger_type: TriggerType.optional(),
  is_active: z.enum(["true", "false"]).optional(),
});

export type HostedFunctionWire = z.infer<typeof HostedFunction>;
export type FunctionDeployWire = z.infer<typeof FunctionDeployResponse>;
export type FunctionRunWire = z.infer<typeof FunctionTestResponse> | z.infer<typeof FunctionInvokeResponse>;
export type FunctionInvocationWire = z.infer<typeof FunctionInvocation>;
export type FunctionVersionWire = z.infer<typeof FunctionVersion>;
export type FunctionSecretsWire = z.infer<typeof FunctionSecrets>;
export type FunctionDraftWire = z.infer<typeof FunctionDraft>;
