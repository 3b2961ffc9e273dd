import { z } from "zod";
import { automationEntrySchema } from "@/lib/domain/automations/definition";
import { agentEntrySchema, MAX_CONFIG_AGENTS } from "./agent-entry";
import { flowEntrySchema } from "./flow-entry";
import { PROJECT_ROUTING_MODES } from "@/lib/shared/routing-modes";

/**
 * The config-as-code document (docs/spec/service-spec.md "Config", docs/spec/decisions.md
 * "Config-as-code"): one zod schema parses it, types it and is its JSON Schema (json-schema.ts).
 * `project`, `webhook` and `require_opt_in` are partial: what is left out is left as it is. `flows`
 * and `automations` are the whole set: a config-owned entity the document no longer lists is deleted.
 * `business_agents` is never a whole set of agents (config does not delete an agent), only of each
 * listed agent's config-owned connectors and their tools.
 */

export const CONFIG_VERSION = 1;
/** Caps that keep one apply one reasonable transaction. */
const MAX_CONFIG_FLOWS = 500;
export const MAX_CONFIG_AUTOMATIONS = 500;
const ROUTING_MODES = PROJECT_ROUTING_MODES;

const projectSectionSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(2000).nullable().optional(),
    routing_mode: z.enum(ROUTING_MODES).optional(),
  })
  .strict();

const webhookSectionSchema = z
  .object({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .nullable(),
  })
  .strict();

export const configDocumentSchema = z
  .object({
    $schema: z.string().max(2048).optional(),
    version: z.literal(CONFIG_VERSION).optional(),
    project_id: z.string().min(1).max(200).optional(),
    require_opt_in: z.boolean().optional(),
    project: projectSectionSchema.optional(),
    webhook: webhookSectionSchema.optional(),
    flows: z.array(flowEntrySchema).max(MAX_CONFIG_FLOWS),
    automations: z.array(automationEntrySchema).max(MAX_CONFIG_AUTOMATIONS),
    /** Left out: the agents are left as they are. Given: each listed agent is managed (agent-entry.ts); an agent not listed is left alone. */
    business_agents: z.array(agentEntrySchema).max(MAX_CONFIG_AGENTS).optional(),
  })
  .strict();

export type ConfigDocument = z.infer<typeof configDocumentSchema>;
export type RoutingMode = (typeof ROUTING_MODES)[number];
