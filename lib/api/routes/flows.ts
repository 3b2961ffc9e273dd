import { defineRoute } from "@/lib/api/route";
import { IdParam, listOf } from "@/lib/api/schemas/common";
import {
  DispatchListQuery,
  Flow,
  FlowCreateRequest,
  FlowDeleted,
  FlowDispatch,
  FlowGetQuery,
  FlowListQuery,
  FlowSendRequest,
  FlowSendResponse,
  FlowSubmission,
  FlowUpdateRequest,
  SubmissionListQuery,
} from "@/lib/api/schemas/flows";
import { createFlow, deleteFlow, getFlow, listFlows, updateFlow } from "@/lib/domain/flows/crud";
import { deprecateFlow, publishFlow, refreshFlow } from "@/lib/domain/flows/publish";
import { sendFlow } from "@/lib/domain/flows/send";
import { listDispatches, listSubmissions } from "@/lib/domain/flows/reads";

const tag = "Flows";

export const flowRoutes = [
  defineRoute({
    method: "GET",
    path: "/flows",
    operationId: "listFlows",
    summary: "List the project's Flows, newest first",
    description: "Filter by config_key (every locale variant of a group) or status.",
    tag,
    scope: "flows:read",
    query: FlowListQuery,
    response: listOf(Flow, "FlowList"),
    handler: ({ ctx, query }) => listFlows(ctx, query),
  }),
  defineRoute({
    method: "POST",
    path: "/flows",
    operationId: "createFlow",
    summary: "Create a Flow from a draft or from Flow JSON",
    description:
      "Exactly one of `draft` (compiled to Flow JSON 7.3) or `flow_json` (stored as given). Validated at every save: a flow with findings is stored and " +
      "`validation_errors` say what to fix ({code, message, path, next_steps}); it cannot be published until they are gone. (config_key, locale) is unique: 409 flow_conflict.",
    tag,
    scope: "flows:publish",
    audit: { exempt: "a flow's draft: nothing reaches customers until it is published, which is audited (flow.published)" },
    body: FlowCreateRequest,
    response: Flow,
    handler: ({ ctx, body }) => createFlow(ctx, body),
  }),
  defineRoute({
    method: "GET",
    path: "/flows/{id}",
    operationId: "getFlow",
    summary: "Retrieve a Flow",
    description: "`include=flow_json` adds the compiled Flow JSON of the current edit; `include=draft` the saved draft.",
    tag,
    scope: "flows:read",
    params: IdParam,
    query: FlowGetQuery,
    response: Flow,
    handler: ({ ctx, params, query }) => getFlow(ctx, params.id, query.include),
  }),
  defineRoute({
    method: "PATCH",
    path: "/flows/{id}",
    operationId: "updateFlow",
    summary: "Update a Flow",
    description:
      "Same keys as create, all optional. Editing a PUBLISHED flow keeps customers on the published version (`has_unpublished_changes: true`) until the next publish. DEPRECATED flows cannot change (409).",
    tag,
    scope: "flows:publish",
    audit: { exempt: "a flow's draft: nothing reaches customers until it is published, which is audited (flow.published)" },
    params: IdParam,
    body: FlowUpdateRequest,
    response: Flow,
    handler: ({ ctx, params, body }) => updateFlow(ctx, params.id, body),
  }),
  defineRoute({
    method: "DELETE",
    path: "/flows/{id}",
    operationId: "deleteFlow",
    summary: "Delete a Flow that was never published",
    description: "A flow that was ever published answers 409 flow_published: deprecate it instead.",
    tag,
    scope: "flows:publish",
    audit: { exempt: "only a flow never published can be deleted: a draft that never reached a customer" },
    params: IdParam,
    response: FlowDeleted,
    handler: ({ ctx, params }) => deleteFlow(ctx, params.id),
  }),
  defineRoute({
    method: "POST",
    path: "/flows/{id}/publish",
    operationId: "publishFlow",
    summary: "Publish a Flow (asynchronous)",
    description:
      "Answers at once with meta_status PUBLISHING; a job creates the provider flow under the project's channel's business account and publishes it, then PUBLISHED (published_version + 1) " +
      "or PUBLISH_FAILED with the provider's validation_errors. 422 flow_invalid while our own checks find errors; 412 channel_not_ready with blockers.",
    tag,
    scope: "flows:publish",
    audit: ["flow.published"],
    params: IdParam,
    response: Flow,
    handler: ({ ctx, params }) => publishFlow(ctx, params.id),
  }),
  defineRoute({
    method: "POST",
    path: "/flows/{id}/refresh",
    operationId: "refreshFlow",
    summary: "Read the provider's status and validation errors of a Flow now",
    tag,
    scope: "flows:publish",
    audit: { exempt: "copies the provider's status into ours: no decision of the caller's" },
    params: IdParam,
    response: Flow,
    handler: ({ ctx, params }) => refreshFlow(ctx, params.id),
  }),
  defineRoute({
    method: "POST",
    path: "/flows/{id}/deprecate",
    operationId: "deprecateFlow",
    summary: "Deprecate a PUBLISHED Flow",
    description:
      "The provider flow is deprecated and the Flow becomes DEPRECATED: it can no longer be sent, and its (config_key, locale) is free for a successor.",
    tag,
    scope: "flows:publish",
    audit: {
      exempt:
        "withdraws a published flow from new sends: the provider's status change reaches the project as a flow.status event, and the publish it ends was audited",
    },
    params: IdParam,
    response: Flow,
    handler: ({ ctx, params }) => deprecateFlow(ctx, params.id),
  }),
  defineRoute({
    method: "POST",
    path: "/flows/send",
    operationId: "sendFlow",
    summary: "Send a published Flow to a customer",
    description:
      "By flow_id, or by config_key with locale resolution (locale → the contact's preferred_language → its primary subtag → the group default). Every POST /messages rule applies " +
      "(window, opt-in, handoff, 429 message_pair_rate_limit, idempotency). Outside the 24 h window give `template` (an approved template with a FLOW button), else 409 outside_messaging_window. " +
      "Answers the FlowDispatch with its unique flow_token, the message_id and the idempotency_key.",
    tag,
    scope: "flows:send",
    audit: { exempt: "message traffic, not configuration" },
    body: FlowSendRequest,
    response: FlowSendResponse,
    handler: ({ ctx, body, idempotencyKey }) => sendFlow(ctx, { ...body, idempotencyKey }),
  }),
  defineRoute({
    method: "GET",
    path: "/flows/{id}/dispatches",
    operationId: "listFlowDispatches",
    summary: "A Flow's dispatches, newest first",
    tag,
    scope: "dispatches:read",
    params: IdParam,
    query: DispatchListQuery,
    response: listOf(FlowDispatch, "FlowDispatchList"),
    handler: ({ ctx, params, query }) => listDispatches(ctx, params.id, query),
  }),
  defineRoute({
    method: "GET",
    path: "/flows/{id}/submissions",
    operationId: "listFlowSubmissions",
    summary: "A Flow's submissions, newest first",
    tag,
    scope: "submissions:read",
    params: IdParam,
    query: SubmissionListQuery,
    response: listOf(FlowSubmission, "FlowSubmissionList"),
    handler: ({ ctx, params, query }) => listSubmissions(ctx, params.id, query),
  }),
];
