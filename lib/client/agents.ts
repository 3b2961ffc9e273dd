"use client";

import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import type {
  BusinessAgent as AgentSchema,
  EligibilityResponse as EligibilitySchema,
  SettingsResponse as SettingsSchema,
  Skill as SkillSchema,
  SkillsResponse as SkillsSchema,
} from "@/lib/api/schemas/business-agents";
import type {
  BusinessAgentConnector as ConnectorSchema,
  BusinessAgentTool as ToolSchema,
  ConnectorCreateRequest as ConnectorCreateSchema,
  ConnectorUpdateRequest as ConnectorUpdateSchema,
  ToolCreateRequest as ToolCreateSchema,
  ToolUpdateRequest as ToolUpdateSchema,
} from "@/lib/api/schemas/business-agent-connectors";
import type { AgentEvalRequest as EvalRequestSchema, AgentEvalWire, AgentTestWire } from "@/lib/api/schemas/agent-threads";
import { projectApi } from "./api";
import { projectQueryKey } from "./query";

/**
 * Business agents of a project (docs/spec/decisions.md "Business agents"): one agent per channel, its
 * eligibility, settings, skills, connectors with their tools, and the dry-run test and eval. The
 * shapes are the API's own (lib/api/schemas/business-agents.ts, business-agent-connectors.ts,
 * agent-threads.ts), types only.
 */
export type BusinessAgent = z.infer<typeof AgentSchema>;
export type AgentStatus = BusinessAgent["status"];
export type AgentEligibility = z.infer<typeof EligibilitySchema>["eligibility"];
export type AgentSkill = z.input<typeof SkillSchema>;
export type AgentSkills = z.infer<typeof SkillsSchema>;
export type AgentConnector = z.infer<typeof ConnectorSchema>;
export type AgentTool = z.infer<typeof ToolSchema>;
export type ConnectorType = AgentConnector["type"];
export type ToolBackingType = AgentTool["backing_type"];
export type ConnectorCreateRequest = z.input<typeof ConnectorCreateSchema>;
export type ConnectorUpdateRequest = z.input<typeof ConnectorUpdateSchema>;
export type ToolCreateRequest = z.input<typeof ToolCreateSchema>;
export type ToolUpdateRequest = z.input<typeof ToolUpdateSchema>;
export type AgentTestResult = AgentTestWire["result"];
export type AgentEvalResult = AgentEvalWire["result"];
export type AgentEvalCase = z.input<typeof EvalRequestSchema>["scenario"]["cases"][number];

const PROVISION_POLL_MS = 2_000;

const agentKeys = {
  all: (projectId: string) => projectQueryKey(projectId, "business-agents"),
  list: (projectId: string) => projectQueryKey(projectId, "business-agents", "list"),
  eligibility: (projectId: string, channelId: string) => projectQueryKey(projectId, "business-agents", "eligibility", channelId),
  skills: (projectId: string, agentId: string) => projectQueryKey(projectId, "business-agents", "skills", agentId),
  connectors: (projectId: string, agentId: string) => projectQueryKey(projectId, "business-agents", "connectors", agentId),
};

const agentPath = (agentId: string, suffix = "") => `/business-agents/${encodeURIComponent(agentId)}${suffix}`;

/** GET /business-agents (one per channel, so one page is every agent); polls while one is PROVISIONING. */
export function useBusinessAgents(projectId: string) {
  return useQuery({
    queryKey: agentKeys.list(projectId),
    queryFn: ({ signal }) => projectApi<ListEnvelope<BusinessAgent>>(projectId, "/business-agents?limit=100", { signal }),
    refetchInterval: (query) => (query.state.data?.data.some((agent) => agent.status === "PROVISIONING") ? PROVISION_POLL_MS : false),
  });
}

/** GET /business-agents/eligibility?channel_id=. */
export function useAgentEligibility(projectId: string, channelId: string | null) {
  return useQuery({
    queryKey: agentKeys.eligibility(projectId, channelId ?? ""),
    queryFn: ({ signal }) =>
      projectApi<z.infer<typeof EligibilitySchema>>(projectId, `/business-agents/eligibility?channel_id=${encodeURIComponent(channelId ?? "")}`, { signal }),
    enabled: !!channelId,
    select: (response) => response.eligibility,
  });
}

function storeAgent(client: QueryClient, projectId: string, agent: BusinessAgent) {
  client.setQueryData<ListEnvelope<BusinessAgent>>(agentKeys.list(projectId), (list) => {
    if (!list) return list;
    const others = list.data.filter((a) => a.id !== agent.id);
    return { ...list, data: [agent, ...others] };
  });
  void client.invalidateQueries({ queryKey: agentKeys.list(projectId) });
}

/** POST /business-agents: create or update the channel's agent (enabled true/false switches it on or off). */
export function useApplyAgent(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { channel_id: string } & Record<string, unknown>) => projectApi<BusinessAgent>(projectId, "/business-agents", { method: "POST", body }),
    onSuccess: (agent) => storeAgent(client, projectId, agent),
  });
}

/** PUT /business-agents/{id}/settings: top-level keys replace the agent's. */
export function useUpdateAgentSettings(projectId: string, agentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: Record<string, unknown>) =>
      projectApi<z.infer<typeof SettingsSchema>>(projectId, agentPath(agentId, "/settings"), { method: "PUT", body: settings }),
    onSuccess: () => void client.invalidateQueries({ queryKey: agentKeys.list(projectId) }),
  });
}

/** GET /business-agents/{id}/skills. */
export function useAgentSkills(projectId: string, agentId: string) {
  return useQuery({
    queryKey: agentKeys.skills(projectId, agentId),
    queryFn: ({ signal }) => projectApi<AgentSkills>(projectId, agentPath(agentId, "/skills"), { signal }),
  });
}

/** PUT /business-agents/{id}/skills: replaces the whole list. */
export function usePutAgentSkills(projectId: string, agentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (skills: AgentSkill[]) =>
      projectApi<AgentSkills>(projectId, agentPath(agentId, "/skills"), { method: "PUT", body: { business_agent_id: agentId, skills } }),
    onSuccess: (answer) => client.setQueryData(agentKeys.skills(projectId, agentId), { ...answer, result: { count: answer.data.length } }),
  });
}

/** GET /business-agents/{id}/connectors: every connector with its tools, oldest first. */
export function useAgentConnectors(projectId: string, agentId: string) {
  return useQuery({
    queryKey: agentKeys.connectors(projectId, agentId),
    queryFn: ({ signal }) => projectApi<ListEnvelope<AgentConnector>>(projectId, agentPath(agentId, "/connectors"), { signal }),
    select: (list) => list.data,
  });
}

/** Every connector/tool write refetches the agent's connectors (the tools the skills pick from). */
function useConnectorMutation<Input, Output>(projectId: string, agentId: string, call: (input: Input) => Promise<Output>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => void client.invalidateQueries({ queryKey: agentKeys.connectors(projectId, agentId) }),
  });
}

export function useCreateConnector(projectId: string, agentId: string) {
  return useConnectorMutation(projectId, agentId, (body: ConnectorCreateRequest) =>
    projectApi<AgentConnector>(projectId, agentPath(agentId, "/connectors"), { method: "POST", body }),
  );
}

export function useUpdateConnector(projectId: string, agentId: string) {
  return useConnectorMutation(projectId, agentId, ({ id, ...body }: ConnectorUpdateRequest & { id: string }) =>
    projectApi<AgentConnector>(projectId, `/business-agent-connectors/${encodeURIComponent(id)}`, { method: "PATCH", body }),
  );
}

export function useDeleteConnector(projectId: string, agentId: string) {
  return useConnectorMutation(projectId, agentId, (id: string) =>
    projectApi<unknown>(projectId, `/business-agent-connectors/${encodeURIComponent(id)}`, { method: "DELETE" }),
  );
}

export function useCreateTool(projectId: string, agentId: string) {
  return useConnectorMutation(projectId, agentId, ({ connectorId, ...body }: ToolCreateRequest & { connectorId: string }) =>
    projectApi<AgentTool>(projectId, `/business-agent-connectors/${encodeURIComponent(connectorId)}/tools`, { method: "POST", body }),
  );
}

export function useUpdateTool(projectId: string, agentId: string) {
  return useConnectorMutation(projectId, agentId, ({ id, ...body }: ToolUpdateRequest & { id: string }) =>
    projectApi<AgentTool>(projectId, `/business-agent-tools/${encodeURIComponent(id)}`, { method: "PATCH", body }),
  );
}

export function useDeleteTool(projectId: string, agentId: string) {
  return useConnectorMutation(projectId, agentId, (id: string) =>
    projectApi<unknown>(projectId, `/business-agent-tools/${encodeURIComponent(id)}`, { method: "DELETE" }),
  );
}

/** POST /business-agents/test: a dry run of one message (nothing is sent). */
export function useTestAgent(projectId: string, agentId: string) {
  return useMutation({
    mutationFn: (input: string) =>
      projectApi<AgentTestWire>(projectId, "/business-agents/test", { method: "POST", body: { business_agent_id: agentId, input } }).then(
        (answer) => answer.result,
      ),
  });
}

/** POST /business-agents/eval: synchronous, at most 50 cases. */
export function useEvalAgent(projectId: string, agentId: string) {
  return useMutation({
    mutationFn: (cases: AgentEvalCase[]) =>
      projectApi<AgentEvalWire>(projectId, "/business-agents/eval", { method: "POST", body: { business_agent_id: agentId, scenario: { cases } } }).then(
        (answer) => answer.result,
      ),
  });
}
