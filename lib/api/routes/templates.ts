import { defineRoute } from "@/lib/api/route";
import { IdParam, listOf } from "@/lib/api/schemas/common";
import { Template, TemplateCreateRequest, TemplateDeleted, TemplateListQuery } from "@/lib/api/schemas/templates";
import { deleteTemplate, getTemplate, listTemplates } from "@/lib/domain/templates/crud";
import { createTemplate } from "@/lib/domain/templates/submit";

const tag = "Templates";

export const templateRoutes = [
  defineRoute({
    method: "GET",
    path: "/templates",
    operationId: "listTemplates",
    summary: "List the project's message templates, newest first",
    description: "Filter by channel_id, status, name or language (exact matches).",
    tag,
    scope: "templates:read",
    query: TemplateListQuery,
    response: listOf(Template, "TemplateList"),
    handler: ({ ctx, query }) => listTemplates(ctx, query),
  }),
  defineRoute({
    method: "POST",
    path: "/templates",
    operationId: "createTemplate",
    summary: "Submit a message template for review",
    description:
      "The components are checked against the provider's rules (400 invalid_request, issues by path such as `components.1.text`), " +
      "then submitted through the channel's business account and stored PENDING; the review result moves `status` and emits template.status. " +
      "The channel must be the project's own PLATFORM_A number ready to submit templates (412 channel_not_ready with blockers; PLATFORM_B/C: 422 " +
      "feature_unsupported_on_channel). The same (channel, name, language) twice: 409 template_exists. A provider refusal: 422 template_rejected.",
    tag,
    scope: "templates:write",
    audit: ["template.submitted"],
    body: TemplateCreateRequest,
    response: Template,
    handler: ({ ctx, body }) => createTemplate(ctx, body),
  }),
  defineRoute({
    method: "GET",
    path: "/templates/{id}",
    operationId: "getTemplate",
    summary: "Retrieve a message template",
    tag,
    scope: "templates:read",
    params: IdParam,
    response: Template,
    handler: ({ ctx, params }) => getTemplate(ctx, params.id),
  }),
  defineRoute({
    method: "DELETE",
    path: "/templates/{id}",
    operationId: "deleteTemplate",
    summary: "Delete a message template, at the provider too",
    description: "Deletes this language of the template at the provider, then here; a provider failure (502 provider_error) deletes nothing.",
    tag,
    scope: "templates:write",
    audit: ["template.deleted"],
    params: IdParam,
    response: TemplateDeleted,
    handler: ({ ctx, params }) => deleteTemplate(ctx, params.id),
  }),
];
