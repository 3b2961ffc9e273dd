import { z } from "@/lib/api/zod";
import { Timestamp } from "@/lib/api/schemas/common";
import { CONNECTOR_TYPES } from "@/lib/db/schema/business-agents";
import { TOOL_JSON_OBJECT, toolFields } from "@/lib/domain/agents/tool-schema";

/**
 * Business-agent connectors and their tools on the wire (docs/spec/service-spec.md "Business agent
 * family": Connector, Connector create/update, Connector tool, Tool create/update; decisions.md
 * "Business agents").
 */

const ConnectorType = z.enum(CONNECTOR_TYPES).openapi("BusinessAgentConnectorType");
const ConnectorStatus = z.enum(["ACTIVE", "DISABLED"]).openapi("BusinessAgentConnectorStatus", {
  description: "A DISABLED connector's tools are not offered to the agent, and a call to one answers the error connector_disabled.",
});
const BackingType = toolFields.backing_type.openapi("BusinessAgentToolBackingType");

const ConnectorConfig = z.record(z.string(), z.unknown()).openapi("BusinessAgentConnectorConfig", {
  description:
    "API connectors: {base_url (http or https), auth_type: NONE|API_KEY|BEARER, auth_header?, secret?}. The secret is sealed at rest and never returned: " +
    'reads show it masked ("••••" + its last 4 characters; "••••" when shorter than 8). Sending the masked value back keeps the stored secret; null removes it.',
});

const ToolConfig = TOOL_JSON_OBJECT.openapi("BusinessAgentToolConfig", {
  description: "API_ENDPOINT: {method: GET|POST, path}. NOOP: {response}. FLOW: optional {body_text, flow_cta} of the message that carries the flow.",
});

const InputSchema = TOOL_JSON_OBJECT.openapi("BusinessAgentToolInputSchema", {
  description: "A JSON Schema (2020-12, type object) the call's arguments are checked against.",
});

const ToolName = toolFields.name.openapi({ description: "What the agent calls the tool by; unique per agent." });

export const BusinessAgentTool = z
  .object({
    object: z.literal("business_agent_connector_tool"),
    id: z.string(),
    connector_id: z.string(),
    business_agent_id: z.string(),
    meta_tool_id: z.string().nullable(),
    name: z.string(),
    description: z.string().nullable(),
    backing_type: BackingType,
    backing_flow_id: z.string().nullable(),
    backing_function_id: z.string().nullable(),
    input_schema: InputSchema.nullable(),
    config: ToolConfig.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("BusinessAgentConnectorTool");

export const BusinessAgentConnector = z
  .object({
    object: z.literal("business_agent_connector"),
    id: z.string(),
    business_agent_id: z.string(),
    meta_connector_id: z.string().nullable(),
    name: z.string(),
    type: ConnectorType,
    config: ConnectorConfig.nullable(),
    status: ConnectorStatus,
    tools: z.array(BusinessAgentTool),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("BusinessAgentConnector");

export const ConnectorCreateRequest = z
  .object({
    business_agent_id: z.string().min(1).max(200).optional().openapi({ description: "The agent of the path; may be left out. Another id: 400." }),
    name: z.string().trim().min(1).max(120),
    type: ConnectorType,
    config: ConnectorConfig.nullable().optional(),
    status: ConnectorStatus.optional().openapi({ description: "Default ACTIVE." }),
  })
  .strict()
  .openapi("BusinessAgentConnectorCreateRequest");

export const ConnectorUpdateRequest = z
  .object({
    name: z.string().trim().min(1).max(120).optional(),
    type: ConnectorType.optional(),
    config: ConnectorConfig.nullable().optional().openapi({ description: "Replaces the stored config (the secret: see the config's description)." }),
    status: ConnectorStatus.optional(),
  })
  .strict()
  .openapi("BusinessAgentConnectorUpdateRequest");

const toolWriteFields = {
  description: toolFields.description,
  backing_flow_id: toolFields.backing_flow_id,
  backing_function_id: toolFields.backing_function_id.openapi({ description: "The function's id (or slug; its id is stored)." }),
  input_schema: InputSchema.nullable().optional(),
  config: ToolConfig.nullable().optional(),
};

export const ToolCreateRequest = z
  .object({ name: ToolName, backing_type: BackingType, ...toolWriteFields })
  .strict()
  .openapi("BusinessAgentToolCreateRequest");

export const ToolUpdateRequest = z
  .object({ name: ToolName.optional(), backing_type: BackingType.optional(), ...toolWriteFields })
  .strict()
  .openapi("BusinessAgentToolUpdateRequest");

export const ConnectorDeleted = z
  .object({ object: z.literal("business_agent_connector"), id: z.string(), deleted: z.literal(true) })
  .openapi("BusinessAgentConnectorDeleted");

export const ToolDeleted = z
  .object({ object: z.literal("business_agent_connector_tool"), id: z.string(), deleted: z.literal(true) })
  .openapi("BusinessAgentToolDeleted");
