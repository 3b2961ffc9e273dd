import { z } from "zod";
import { CONNECTOR_TYPES } from "@/lib/db/schema/business-agents";
import { skillFields, TOOL_OR_RESPONSE } from "@/lib/domain/agents/skill-schema";
import { toolFields } from "@/lib/domain/agents/tool-schema";
import { CONFIG_KEY } from "./flow-entry";

/**
 * A `business_agents` entry of the config document (docs/spec/decisions.md "Business agents":
 * `{channel_id, settings, skills, connectors: [{key, name, type, config, tools: [...]}]}`). Skills
 * and tools share their fields with the API's schemas (agents/skill-schema.ts, tool-schema.ts): one
 * source, strict here so a typo in a config file is an issue. `settings` merges into what is stored (as POST
 * /business-agents does) and `skills` replaces the list when given; `connectors` is the whole set of
 * the agent's config-owned connectors (a connector made through the API has no key and is left alone).
 */

export const MAX_CONFIG_AGENTS = 50;
const JsonObject = z.record(z.string(), z.unknown());

const skillEntrySchema = z.object(skillFields).strict().refine(TOOL_OR_RESPONSE.check, { message: TOOL_OR_RESPONSE.message });

const toolEntrySchema = z
  .object({
    ...toolFields,
    backing_flow_id: toolFields.backing_flow_id.describe("FLOW: a published flow's id, or a flow key of the project (its default-locale entry, published)."),
    backing_function_id: toolFields.backing_function_id.describe("HOSTED_FUNCTION: a deployed, active function's id or slug."),
  })
  .strict();

const connectorEntrySchema = z
  .object({
    key: z.string().regex(CONFIG_KEY, "Lower-case letters, digits, '_' and '-', starting with a letter or digit, at most 64."),
    name: z.string().trim().min(1).max(120),
    type: z.enum(CONNECTOR_TYPES),
    config: JsonObject.nullable().optional().describe("API: {base_url, auth_type, auth_header?, secret?}. A secret left out keeps the stored one."),
    status: z.enum(["ACTIVE", "DISABLED"]).optional(),
    tools: z.array(toolEntrySchema).max(100).default([]),
  })
  .strict();

export const agentEntrySchema = z
  .object({
    channel_id: z.string().min(1).max(200),
    settings: JsonObject.optional(),
    skills: z.array(skillEntrySchema).max(100).optional(),
    connectors: z.array(connectorEntrySchema).max(50).default([]),
  })
  .strict();

export type AgentEntry = z.infer<typeof agentEntrySchema>;
export type ConnectorEntry = z.infer<typeof connectorEntrySchema>;
export type ToolEntry = z.infer<typeof toolEntrySchema>;
export type SkillEntry = z.infer<typeof skillEntrySchema>;
