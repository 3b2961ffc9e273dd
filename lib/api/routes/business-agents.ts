import { defineRoute } from "@/lib/api/route";
import { IdParam, listOf } from "@/lib/api/schemas/common";
import {
  AgentListQuery,
  ApplyRequest,
  BusinessAgent,
  EligibilityQuery,
  EligibilityResponse,
  SettingsRequest,
  SettingsResponse,
  SkillsResponse,
  SkillsSetRequest,
} from "@/lib/api/schemas/business-agents";
import { applyAgent, getAgent, getSettings, listAgents, putSettings } from "@/lib/domain/agents/crud";
import { checkEligibility } from "@/lib/domain/agents/eligibility";
import { getSkills, putSkills } from "@/lib/domain/agents/skills";

const tag = "Business agents";

/** The agent itself: apply, read, settings, eligibility, skills (connectors, tools, thread control, test and eval have their own files). */
export const businessAgentRoutes = [
  defineRoute({
    method: "GET",
    path: "/business-agents",
    operationId: "listBusinessAgents",
    summary: "List the project's business agents, newest first",
    description: "One agent per channel; filter by channel_id.",
    tag,
    scope: "business_agents:read",
    query: AgentListQuery,
    response: listOf(BusinessAgent, "BusinessAgentList"),
    handler: ({ ctx, query }) => listAgents(ctx, query),
  }),
  defineRoute({
    method: "POST",
    path: "/business-agents",
    operationId: "applyBusinessAgent",
    summary: "Create or update the business agent of a channel",
    description:
      "Upsert per channel: the project's own PLATFORM_A number or the shared sandbox (testing only). An ineligible channel answers 412 channel_not_ready with `blockers`. " +
      "Every key but channel_id is stored in `settings` (extra keys kept; top-level keys merge into an existing agent's). A first apply is PROVISIONING until the provider answers " +
      "(then ACTIVE, or ERROR with error_message); `enabled: false` → DISABLED; an ACTIVE agent stays ACTIVE while its settings are sent again.",
    tag,
    scope: "business_agents:write",
    audit: ["business_agent.enabled", "business_agent.disabled"],
    body: ApplyRequest,
    response: BusinessAgent,
    handler: ({ ctx, body }) => applyAgent(ctx, body),
  }),
  defineRoute({
    method: "GET",
    path: "/business-agents/eligibility",
    operationId: "getBusinessAgentEligibility",
    summary: "Whether a channel can carry a business agent",
    description:
      "`eligibility` is {eligible, reasons, checked_at}; the shared sandbox is eligible with reason SANDBOX_TEST_ONLY. A channel the project cannot see is a 404.",
    tag,
    scope: "business_agents:read",
    query: EligibilityQuery,
    response: EligibilityResponse,
    handler: ({ ctx, query }) => checkEligibility(ctx, query.channel_id),
  }),
  defineRoute({
    method: "GET",
    path: "/business-agents/{id}",
    operationId: "getBusinessAgent",
    summary: "Retrieve a business agent",
    tag,
    scope: "business_agents:read",
    params: IdParam,
    response: BusinessAgent,
    handler: ({ ctx, params }) => getAgent(ctx, params.id),
  }),
  defineRoute({
    method: "GET",
    path: "/business-agents/{id}/settings",
    operationId: "getBusinessAgentSettings",
    summary: "A business agent's settings",
    tag,
    scope: "business_agents:read",
    params: IdParam,
    response: SettingsResponse,
    handler: ({ ctx, params }) => getSettings(ctx, params.id),
  }),
  defineRoute({
    method: "PUT",
    path: "/business-agents/{id}/settings",
    operationId: "putBusinessAgentSettings",
    summary: "Merge settings into a business agent",
    description:
      "Top-level keys replace the agent's (extra keys kept); keys not sent stay. `enabled: false` → DISABLED, `enabled: true` on a DISABLED agent provisions it again.",
    tag,
    scope: "business_agents:write",
    audit: ["business_agent.enabled", "business_agent.disabled"],
    params: IdParam,
    body: SettingsRequest,
    response: SettingsResponse,
    handler: ({ ctx, params, body }) => putSettings(ctx, params.id, body),
  }),
  defineRoute({
    method: "GET",
    path: "/business-agents/{id}/skills",
    operationId: "getBusinessAgentSkills",
    summary: "A business agent's skills",
    description: "`data` is the skills list; `result` is {count}.",
    tag,
    scope: "business_agents:read",
    params: IdParam,
    response: SkillsResponse,
    handler: ({ ctx, params }) => getSkills(ctx, params.id),
  }),
  defineRoute({
    method: "PUT",
    path: "/business-agents/{id}/skills",
    operationId: "putBusinessAgentSkills",
    summary: "Replace a business agent's skills",
    description:
      "`business_agent_id` must be the path's agent. Each skill: name (slug, ≤ 64, unique), description (≤ 1024), triggers (keywords), tool (a tool name of this agent: else 422), response. " +
      "`result` is {count, added, updated, removed} by skill name.",
    tag,
    scope: "business_agents:write",
    audit: { exempt: "what the agent talks about: content, not access, credentials or routing" },
    params: IdParam,
    body: SkillsSetRequest,
    response: SkillsResponse,
    handler: ({ ctx, params, body }) => putSkills(ctx, params.id, body),
  }),
];
