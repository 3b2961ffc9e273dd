import { defineRoute } from "@/lib/api/route";
import { IdParam, listOf } from "@/lib/api/schemas/common";
import {
  BusinessAgentConnector,
  BusinessAgentTool,
  ConnectorCreateRequest,
  ConnectorDeleted,
  ConnectorUpdateRequest,
  ToolCreateRequest,
  ToolDeleted,
  ToolUpdateRequest,
} from "@/lib/api/schemas/business-agent-connectors";
import { createConnector, deleteConnector, listConnectors, updateConnector } from "@/lib/domain/agents/connectors";
import { createTool, deleteTool, updateTool } from "@/lib/domain/agents/tools";

const tag = "Business agents";
const backing =
  "Backing: FLOW → backing_flow_id, a PUBLISHED flow of the project (calling it sends the flow to the customer); HOSTED_FUNCTION → backing_function_id, " +
  "a deployed active function (run with event_type agent_tool); API_ENDPOINT → config {method: GET|POST, path} on an API connector (SSRF-guarded, 10 s, " +
  "signed like a webhook delivery); NOOP → config {response}. Anything else, another project's id included: 422 invalid_tool_backing.";

export const businessAgentConnectorRoutes = [
  defineRoute({
    method: "GET",
    path: "/business-agents/{id}/connectors",
    operationId: "listBusinessAgentConnectors",
    summary: "List an agent's connectors with their tools",
    description: "Oldest first, every connector in one page (has_more is false). Secrets are masked.",
    tag,
    scope: "business_agents:read",
    params: IdParam,
    response: listOf(BusinessAgentConnector, "BusinessAgentConnectorList"),
    handler: ({ ctx, params }) => listConnectors(ctx, params.id),
  }),
  defineRoute({
    method: "POST",
    path: "/business-agents/{id}/connectors",
    operationId: "createBusinessAgentConnector",
    summary: "Add a connector to an agent",
    description:
      "type API, FLOWS, FUNCTIONS or CUSTOM. An API connector's config is {base_url, auth_type: NONE|API_KEY|BEARER, auth_header?, secret?}; " +
      "the secret is sealed at rest and read back masked. business_agent_id in the body may be left out; when given it must be the path's.",
    tag,
    scope: "business_agents:write",
    audit: ["connector.created"],
    params: IdParam,
    body: ConnectorCreateRequest,
    response: BusinessAgentConnector,
    handler: ({ ctx, params, body }) => createConnector(ctx, params.id, body),
  }),
  defineRoute({
    method: "PATCH",
    path: "/business-agent-connectors/{id}",
    operationId: "updateBusinessAgentConnector",
    summary: "Update a connector",
    description:
      "A given config replaces the stored one; its secret left out or sent back masked keeps the stored secret, null removes it. " +
      "A connector with API_ENDPOINT tools cannot leave type API (409 conflict).",
    tag,
    scope: "business_agents:write",
    audit: ["connector.updated"],
    params: IdParam,
    body: ConnectorUpdateRequest,
    response: BusinessAgentConnector,
    handler: ({ ctx, params, body }) => updateConnector(ctx, params.id, body),
  }),
  defineRoute({
    method: "DELETE",
    path: "/business-agent-connectors/{id}",
    operationId: "deleteBusinessAgentConnector",
    summary: "Delete a connector and its tools",
    tag,
    scope: "business_agents:write",
    audit: ["connector.deleted"],
    params: IdParam,
    response: ConnectorDeleted,
    handler: ({ ctx, params }) => deleteConnector(ctx, params.id),
  }),
  defineRoute({
    method: "POST",
    path: "/business-agent-connectors/{id}/tools",
    operationId: "createBusinessAgentTool",
    summary: "Add a tool to a connector",
    description: `name matches ^[a-z][a-z0-9_]{0,63}$ and is unique per agent (409 tool_conflict). input_schema is a JSON Schema (2020-12, type object). ${backing}`,
    tag,
    scope: "business_agents:write",
    audit: { exempt: "a tool names an operation of its connector, whose credentials are audited; it carries no secret" },
    params: IdParam,
    body: ToolCreateRequest,
    response: BusinessAgentTool,
    handler: ({ ctx, params, body }) => createTool(ctx, params.id, body),
  }),
  defineRoute({
    method: "PATCH",
    path: "/business-agent-tools/{id}",
    operationId: "updateBusinessAgentTool",
    summary: "Update a tool",
    description: `Keys left out keep their value; the resulting tool is checked as a whole. ${backing}`,
    tag,
    scope: "business_agents:write",
    audit: { exempt: "a tool names an operation of its connector, whose credentials are audited; it carries no secret" },
    params: IdParam,
    body: ToolUpdateRequest,
    response: BusinessAgentTool,
    handler: ({ ctx, params, body }) => updateTool(ctx, params.id, body),
  }),
  defineRoute({
    method: "DELETE",
    path: "/business-agent-tools/{id}",
    operationId: "deleteBusinessAgentTool",
    summary: "Delete a tool",
    tag,
    scope: "business_agents:write",
    audit: { exempt: "a tool names an operation of its connector, whose credentials are audited; it carries no secret" },
    params: IdParam,
    response: ToolDeleted,
    handler: ({ ctx, params }) => deleteTool(ctx, params.id),
  }),
];
