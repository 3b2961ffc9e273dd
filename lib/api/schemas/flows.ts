import { z } from "@/lib/api/zod";
import { PageQuery, Timestamp } from "@/lib/api/schemas/common";
import { DRAFT_DESCRIPTION, draftSchemas } from "@/lib/domain/flows/draft-schema";
import { DRAFT_FIELD_TYPES } from "@/lib/domain/flows/flow-json/types";

/**
 * Flows on the wire (docs/spec/service-spec.md Flow, FlowDispatch, FlowSubmission; docs/spec/decisions.md
 * "Flows"). The request schemas check the draft's SHAPE only (types, hard size caps): the rules the
 * provider enforces (screen ids, label lengths, navigation, ...) are findings in validation_errors, so a
 * work-in-progress draft can be saved and shows what to fix.
 */

const FLOW_STATUS = ["DRAFT", "PUBLISHED", "DEPRECATED"] as const;
const META_STATUS = ["DRAFT", "PUBLISHED", "DEPRECATED", "BLOCKED", "THROTTLED", "PUBLISHING", "PUBLISH_FAILED"] as const;

export const { draft: Draft } = draftSchemas("strip", (schema, part) =>
  part === "FlowDraft" ? schema.openapi(part, { description: DRAFT_DESCRIPTION }) : schema.openapi(part),
);

const FlowJsonInput = z.record(z.string(), z.unknown()).openapi("FlowJson", {
  description: "The provider's Flow JSON ({version, screens, ...}); stored as given and validated by our rules.",
});

const FieldSchemaItem = z
  .object({ name: z.string(), type: z.enum(DRAFT_FIELD_TYPES), required: z.boolean(), screen: z.string() })
  .openapi("FlowFieldSchemaItem");

const FlowValidationError = z
  .object({
    code: z.union([z.string(), z.number()]),
    message: z.string(),
    path: z.string().optional(),
    next_steps: z.string().optional(),
  })
  .catchall(z.unknown())
  .openapi("FlowValidationError", {
    description:
      "Our finding {code, message, path (JSON pointer into draft or flow_json), next_steps}, or after a failed publish the provider's {code, subcode, error_type, message, line_start, line_end, column_start, column_end, fbtrace_id}.",
  });

const Locale = z
  .string()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, "A BCP-47 tag such as en, pt-BR or es-419.")
  .max(35);

const flowWriteFields = {
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).nullable().optional(),
  config_key: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/, "Letters, digits, '_', '.' and '-'.")
    .max(100)
    .nullable()
    .optional(),
  locale: Locale.nullable().optional(),
  runtime_mode: z.enum(["STATIC", "DATA_EXCHANGE"]).optional(),
  data_exchange_url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable()
    .optional(),
  draft: Draft.optional(),
  flow_json: FlowJsonInput.optional(),
};

export const FlowCreateRequest = z
  .object(flowWriteFields)
  .refine((body) => (body.draft === undefined) !== (body.flow_json === undefined), {
    message: "Give exactly one of draft or flow_json.",
    path: ["draft"],
  })
  .openapi("FlowCreateRequest");

export const FlowUpdateRequest = z
  .object({ ...flowWriteFields, name: flowWriteFields.name.optional() })
  .refine((body) => body.draft === undefined || body.flow_json === undefined, { message: "Give draft or flow_json, not both.", path: ["draft"] })
  .openapi("FlowUpdateRequest");

export const FlowGetQuery = z.object({
  include: z
    .string()
    .regex(/^(flow_json|draft)(,(flow_json|draft))*$/, "A comma-separated list of: flow_json, draft.")
    .optional()
    .openapi({ description: "flow_json: the compiled Flow JSON of the current edit; draft: the saved draft (null when the flow was given as Flow JSON)." }),
});

export const FlowListQuery = PageQuery.extend({
  config_key: z.string().min(1).max(100).optional(),
  status: z.enum(FLOW_STATUS).optional(),
});

export const Flow = z
  .object({
    object: z.literal("flow"),
    id: z.string(),
    config_key: z.string().nullable(),
    locale: z.string().nullable(),
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(FLOW_STATUS),
    meta_status: z.enum(META_STATUS).nullable(),
    meta_status_reason: z.string().nullable(),
    validation_errors: z.array(FlowValidationError).nullable(),
    runtime_mode: z.enum(["STATIC", "DATA_EXCHANGE"]),
    data_exchange_url: z.string().nullable(),
    field_schema: z.array(FieldSchemaItem).nullable(),
    flow_json: FlowJsonInput.nullable().optional(),
    draft: Draft.nullable().optional(),
    published_version: z.number().int().nullable(),
    has_unpublished_changes: z.boolean(),
    meta_flow_id: z.string().nullable(),
    meta_waba_id: z.string().nullable(),
    agent_id: z.string(),
    last_synced_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Flow");

export const FlowDeleted = z.object({ object: z.literal("flow"), id: z.string(), deleted: z.literal(true) }).openapi("FlowDeleted");

export const FlowSendRequest = z
  .object({
    channel_id: z.string().min(1).max(200),
    flow_id: z.string().min(1).max(200).optional(),
    config_key: z.string().min(1).max(100).optional(),
    conversation_id: z.string().min(1).max(200).optional(),
    to: z
      .string()
      .regex(/^\+?[1-9]\d{5,17}$/, "An E.164 phone number such as +15551234567.")
      .optional(),
    contact_id: z.string().min(1).max(200).optional(),
    locale: Locale.optional(),
    body_text: z.string().min(1).max(1024),
    flow_cta: z.string().min(1).max(20).optional(),
    header_text: z.string().min(1).max(60).optional(),
    footer_text: z.string().min(1).max(60).optional(),
    screen: z.string().min(1).max(200).optional(),
    data: z.record(z.string(), z.unknown()).optional(),
    template: z.object({ name: z.string().min(1).max(512), language: z.string().min(2).max(10) }).optional(),
    idempotency_key: z.string().min(1).max(200).optional().openapi({ description: "Body alternative to the Idempotency-Key header." }),
  })
  .superRefine((body, issue) => {
    if ((body.flow_id === undefined) === (body.config_key === undefined)) {
      issue.addIssue({ code: "custom", path: ["flow_id"], message: "Give exactly one of flow_id or config_key." });
    }
    const recipients = [body.conversation_id, body.to, body.contact_id].filter((v) => v !== undefined).length;
    if (recipients !== 1) issue.addIssue({ code: "custom", path: ["conversation_id"], message: "Give exactly one of conversation_id, to or contact_id." });
  })
  .openapi("FlowSendRequest");

export const FlowDispatch = z
  .object({
    object: z.literal("flow_dispatch"),
    id: z.string(),
    flow_token: z.string(),
    flow_id: z.string(),
    agent_id: z.string(),
    channel_id: z.string(),
    conversation_id: z.string().nullable(),
    contact_id: z.string().nullable(),
    to: z.string().nullable(),
    status: z.enum(["SENT", "COMPLETED", "EXPIRED"]),
    created_at: Timestamp,
    completed_at: Timestamp.nullable(),
    expires_at: Timestamp,
  })
  .openapi("FlowDispatch");

export const FlowSendResponse = FlowDispatch.extend({
  message_id: z.string(),
  idempotency_key: z.string(),
  locale: z.string().nullable(),
  flow_version: z.number().int(),
}).openapi("FlowSendResponse");

export const FlowSubmission = z
  .object({
    object: z.literal("flow_submission"),
    id: z.string(),
    flow_token: z.string(),
    agent_id: z.string(),
    flow_id: z.string(),
    conversation_id: z.string().nullable(),
    contact_id: z.string().nullable(),
    from: z.string().nullable(),
    status: z.enum(["RECEIVED", "VALIDATED", "REJECTED", "FORWARDED"]),
    submission: z.record(z.string(), z.unknown()),
    errors: z.array(z.object({ field: z.string(), code: z.string(), message: z.string() })).nullable(),
    created_at: Timestamp,
  })
  .openapi("FlowSubmission");

export type FlowWire = z.infer<typeof Flow>;
export type FlowDraftWire = z.infer<typeof Draft>;
export type FlowDispatchWire = z.infer<typeof FlowDispatch>;
export type FlowSubmissionWire = z.infer<typeof FlowSubmission>;
export type FlowSendResponseWire = z.infer<typeof FlowSendResponse>;
export type FlowCreateRequestWire = z.infer<typeof FlowCreateRequest>;
export type FlowUpdateRequestWire = z.infer<typeof FlowUpdateRequest>;
export type FlowSendRequestWire = z.infer<typeof FlowSendRequest>;

export const DispatchListQuery = PageQuery.extend({
  status: z.enum(["SENT", "COMPLETED", "EXPIRED"]).optional(),
});

export const SubmissionListQuery = PageQuery.extend({
  status: z.enum(["RECEIVED", "VALIDATED", "REJECTED", "FORWARDED"]).optional(),
});
