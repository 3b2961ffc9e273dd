import { z } from "zod";
import { CONNECTOR_TYPES, TOOL_BACKING_TYPES } from "@/lib/db/schema/business-agents";
import { skillFields, TOOL_OR_RESPONSE } from "@/lib/domain/agents/skill-schema";
import { CONFIG_KEY } from "./flow-entry";

/**
 * A `business_agents` entry of the config document (docs/spec/decisions.md "Business agents":
 * `{channel_id, settings, skills, connectors: [{key, name, type, config, tools: [...]}]}`). The
 * shapes are the API's (lib/api/schemas/business-agents.ts, business-agent-connectors.ts), kept here
 * because lib/domain cannot import lib/api. `settings` merges into what is stored (as POST
 * /business-agents does) and `skills` replaces the list when given; `connectors` is the whole set of
 * the agent's config-owned connectors (a connector made through the API has no key and is left alone).
 */

export const MAX_CONFIG_AGENTS = 50;
const JsonObject = z.record(z.string(), z.unknown());

export const skillEntrySchema = z.object(skillFields).strict().refine(TOOL_OR_RESPONSE.check, { message: TOOL_OR_RESPONSE.message });

export const toolEntrySchema = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, "Lower-case letters, digits and '_', starting with a letter, at most 64."),
    description: z.string().max(1024).nullable().optional(),
    backing_type: z.enum(TOOL_BACKING_TYPES),
    backing_flow_id: z
      .string()
      .min(1)
      .max(200)
      .nullable()
      .optional()
      .describe("FLOW: a published flow's id, or a flow key of the project (its default-locale entry, published)."),
    backing_function_id: z.string().min(1).max(200).nullable().optional().describe("HOSTED_FUNCTION: a deployed, active function's id or slug."),
    input_schema: JsonObject.nullable().optional(),
    config: JsonObject.nullable().optional(),
  })
  .strict();

export const connectorEntrySchema = z
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
