import { graphRequest, type AdapterOptions } from "@/lib/ports/provider/graph-http";
import { accountClient as client, callTime as at, unexpectedAnswer } from "@/lib/ports/provider/account-call";
import type { ProviderAccount } from "@/lib/ports/provider/types";
import { isRecord } from "@/lib/json";

/**
 * The provider's business agent API (PLATFORM_A). The provider documents a business agent per phone
 * number (eligibility, onboarding, settings) but no public Graph path we could confirm, so these
 * Graph-style calls are our assumption (docs/api-decisions.md "Business agents"):
 *   POST {graph}/{phone_number_id}/business_agents {enabled, settings, skills} → {id}
 *        one agent per number: a repeat answers the same id with the new settings (so a retried
 *        provisioning never makes a second agent)
 *   POST {graph}/{agent_id} {enabled, settings, skills} → {success: true}
 * Refusals come back as ProviderError with the provider's code, like a refused send.
 */
export interface ProviderAgentSpec {
  enabled: boolean;
  settings: Record<string, unknown>;
  skills: Record<string, unknown>[];
}

export interface ProviderAgentsPort {
  /** Creates (or answers) the number's agent with this spec: the provider's agent id. */
  createAgent(account: ProviderAccount, spec: ProviderAgentSpec): Promise<{ id: string }>;
  /** Replaces the agent's spec. */
  updateAgent(account: ProviderAccount, agentId: string, spec: ProviderAgentSpec): Promise<void>;
}

export function createAgentsPort(options: AdapterOptions): ProviderAgentsPort {
  return {
    async createAgent(account, spec) {
      const answer = await graphRequest(client(options, account), {
        method: "POST",
        path: `${encodeURIComponent(account.phoneNumberId)}/business_agents`,
        body: spec,
      });
      const id = isRecord(answer) && typeof answer.id === "string" && answer.id !== "" ? answer.id : null;
      if (!id) throw unexpectedAnswer("The provider took the business agent but returned no agent id", answer, at(options));
      return { id };
    },

    async updateAgent(account, agentId, spec) {
      const answer = await graphRequest(client(options, account), { method: "POST", path: encodeURIComponent(agentId), body: spec });
      if (!isRecord(answer) || answer.success !== true)
        throw unexpectedAnswer(`The provider did not confirm the update of agent ${agentId}`, answer, at(options));
    },
  };
}
