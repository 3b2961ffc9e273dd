import { z } from "@/lib/api/zod";
import { PageQuery, Timestamp } from "@/lib/api/schemas/common";
import { BUSINESS_AGENT_STATUSES } from "@/lib/db/schema/business-agents";
import { skillFields, TOOL_OR_RESPONSE } from "@/lib/domain/agents/skill-schema";

/**
 * Business agents on the wire (docs/spec/service-spec.md "Business agent family", docs/spec/decisions.md
 * "Business agents"). ApplyRequest and SettingsRequest allow extra keys: `settings` keeps them all.
 */

const JsonObject = z.record(z.string(), z.unknown());

const AgentEligibility = z
  .object({
    eligible: z.boolean(),
    reasons: z.array(z.string()).openapi({
      description:
        "Codes: CHANNEL_NOT_PLATFORM_A, CHANNEL_NOT_CONNECTED, CHANNEL_OF_ANOTHER_PROJECT, the channel's publish blockers (BUSINESS_NOT_VERIFIED, ...); SANDBOX_TEST_ONLY on the shared sandbox (eligible, for testing).",
    }),
    checked_at: Timestamp,
  })
  .openapi("BusinessAgentEligibilityResult");

export const BusinessAgent = z
  .object({
    object: z.literal("business_agent"),
    id: z.string(),
    project_id: z.string(),
    channel_id: z.string(),
    meta_agent_id: z
      .string()
      .nullable()
      .openapi({ description: "The provider's agent id; null before provisioning and on the shared sandbox (its agent runs offline)." }),
    status: z.enum(BUSINESS_AGENT_STATUSES),
    settings: JsonObject.nullable().openapi({ description: "Every key of ApplyRequest / SettingsRequest, extra keys included (channel_id is not a setting)." }),
    eligibility: JsonObject.nullable().openapi({ description: "{eligible, reasons, checked_at} as of the last apply." }),
    error_message: z
      .string()
      .nullable()
      .openapi({ description: "Why provisioning failed (status ERROR), or why the last settings sync of an ACTIVE agent did." }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("BusinessAgent");

const settingsKeys = {
  enabled: z.boolean().optional().openapi({ description: "false → DISABLED." }),
  persona: z.string().max(4000).optional(),
  language: z.string().max(35).optional(),
  handoff: JsonObject.optional().openapi({ description: "E.g. {keywords: [...]} (default human, agent, person)." }),
  knowledge: JsonObject.optional().openapi({ description: "E.g. {faq: [{q, a}]}." }),
};

export const ApplyRequest = z
  .object({ channel_id: z.string().min(1).max(200), ...settingsKeys })
  .catchall(z.unknown())
  .openapi("BusinessAgentApplyRequest");

export const SettingsRequest = z.object(settingsKeys).catchall(z.unknown()).openapi("BusinessAgentSettingsRequest");

export const SettingsResponse = z
  .object({ object: z.literal("business_agent_settings"), business_agent_id: z.string(), settings: JsonObject })
  .openapi("BusinessAgentSettings");

export const EligibilityQuery = z.object({ channel_id: z.string().min(1).max(200) });

export const EligibilityResponse = z
  .object({ object: z.literal("business_agent_eligibility"), channel_id: z.string(), eligibility: AgentEligibility })
  .openapi("BusinessAgentEligibility");

export const AgentListQuery = PageQuery.extend({ channel_id: z.string().min(1).max(200).optional() });

export const Skill = z
  .object({
    ...skillFields,
    triggers: skillFields.triggers.openapi({ description: "Keywords; a skill runs when one matches as a whole word." }),
    tool: skillFields.tool.openapi({ description: "The name of one of this agent's tools." }),
    response: skillFields.response.openapi({ description: "The reply (after the tool, if any)." }),
  })
  .strict()
  .refine(TOOL_OR_RESPONSE.check, { message: TOOL_OR_RESPONSE.message })
  .openapi("BusinessAgentSkill");

export const SkillsSetRequest = z
  .object({ business_agent_id: z.string().min(1).max(200), skills: z.array(Skill).max(100) })
  .strict()
  .openapi("BusinessAgentSkillsSetRequest");

export const SkillsResponse = z
  .object({
    object: z.literal("business_agent_skills"),
    business_agent_id: z.string(),
    data: z.array(JsonObject),
    result: JsonObject.openapi({ description: "GET: {count}. PUT: {count, added, updated, removed}, skill names." }),
  })
  .openapi("BusinessAgentSkills");
