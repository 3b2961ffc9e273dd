import { z } from "@/lib/api/zod";
import { PageQuery, Timestamp } from "@/lib/api/schemas/common";
import { TEMPLATE_STATUSES } from "@/lib/db/schema/templates";
import { templateFieldSchemas } from "@/lib/shared/templates/request";
import { PARAMETER_FORMATS, TEMPLATE_CATEGORIES } from "@/lib/shared/templates/types";

/**
 * Templates on the wire (docs/spec/service-spec.md "Template", docs/spec/decisions.md "Templates").
 * The request's own fields are lib/shared/templates/request.ts's (the builder checks them with the same
 * words); the component rules (lib/shared/templates/validate.ts) answer 400 invalid_request with issues
 * keyed like `components.1.text`.
 */

const Category = z.enum(TEMPLATE_CATEGORIES).openapi("TemplateCategory");
const Status = z.enum(TEMPLATE_STATUSES).openapi("TemplateStatus", {
  description: "PENDING until the provider's review; then APPROVED or REJECTED; the provider may later PAUSE or DISABLE an approved template.",
});

const Component = z.record(z.string(), z.unknown()).openapi("TemplateComponent", {
  description:
    "A HEADER, BODY, FOOTER or BUTTONS component in the provider's shape. A FLOW button names one of the project's published flows by `flow_id` or `flow_name`, with `flow_action` and, for navigate, `navigate_screen`.",
});

const fields = templateFieldSchemas(z);

export const TemplateCreateRequest = z
  .object({
    channel_id: fields.channel_id,
    name: fields.name,
    language: fields.language.openapi({ example: "en_US" }),
    category: Category,
    components: z.array(Component).min(1).max(10),
    parameter_format: z.enum(PARAMETER_FORMATS).optional().openapi({
      description: "POSITIONAL ({{1}}, {{2}}, …, the default) or NAMED ({{first_name}}, with example.*_named_params).",
    }),
  })
  .strict()
  .openapi("TemplateCreateRequest");

export const Template = z
  .object({
    object: z.literal("whatsapp_template"),
    id: z.string(),
    channel_id: z.string(),
    meta_template_id: z.string().nullable(),
    name: z.string(),
    language: z.string(),
    category: Category,
    status: Status,
    rejection_reason: z.string().nullable(),
    components: z.array(Component).openapi({ description: "As submitted (FLOW buttons keep the flow_id or flow_name given)." }),
    submitted_at: Timestamp,
    approved_at: Timestamp.nullable(),
    rejected_at: Timestamp.nullable(),
    last_synced_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Template");

export const TemplateListQuery = PageQuery.extend({
  channel_id: z.string().min(1).max(200).optional(),
  status: Status.optional(),
  name: z.string().min(1).max(512).optional(),
  language: z.string().min(2).max(10).optional(),
});

export const TemplateDeleted = z.object({ object: z.literal("whatsapp_template"), id: z.string(), deleted: z.literal(true) }).openapi("TemplateDeleted");

export type TemplateWire = z.infer<typeof Template>;
