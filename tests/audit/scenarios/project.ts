import { automationEntry, configDoc } from "../../config/support";
import { seedAgent } from "../../agents/connector-support";
import { ok, scenario, type Stage } from "./support";

/** The project's webhook and routing, and config-as-code, which can change both and an agent's connectors. */

const HOOK = "https://hooks.example.com/svc";
const SECRET_QUERY = "token=hook-query-secret-42";

function agentDoc(connectors: unknown[], settings: Record<string, unknown> = {}) {
  return configDoc({ business_agents: [{ channel_id: "ch_sandbox", settings: { persona: "Helpful", ...settings }, connectors }] });
}

const shopConnector = (secret: string) => ({
  key: "shop",
  name: "Shop API",
  type: "API",
  config: { base_url: "https://api.example.com", auth_type: "BEARER", secret },
});
const formsConnector = { key: "forms", name: "Forms", type: "FLOWS" };

async function agentApplied(stage: Stage) {
  ok(await stage.api("POST", "/config/apply", agentDoc([shopConnector("first-bearer-secret-1111"), formsConnector])), "apply agent");
}

export const projectScenarios = [
  scenario({
    operationId: "updateProject",
    proves: ["project.webhook_url_changed", "project.webhook_secret_rotated", "project.routing_changed"],
    actor: "user",
    act: (stage) =>
      stage.dash("PATCH", `/projects/${stage.seeded.projectId}`, {
        webhook_url: `https://hooks.example.com/in?${SECRET_QUERY}#and-hook-fragment-77`,
        webhook_secret: `whsec_${Buffer.alloc(32, 7).toString("base64")}`,
        routing_mode: "FLOWS",
      }),
    secrets: () => ["hook-fragment-77", "hook-query-secret-42", Buffer.alloc(32, 7).toString("base64")],
  }),
  scenario({
    operationId: "rotateProjectWebhookSecret",
    proves: ["project.webhook_secret_rotated"],
    actor: "api_key",
    act: (stage) => stage.api("POST", `/projects/${stage.seeded.projectId}/rotate-webhook-secret`),
    secrets: (_, result) => [result.body.webhook_secret.slice(6, 30)],
  }),
  scenario({
    operationId: "applyConfig",
    proves: ["config.applied", "project.webhook_url_changed", "project.routing_changed"],
    actor: "api_key",
    act: (stage) => stage.api("POST", "/config/apply", configDoc({ project: { routing_mode: "FLOWS" }, webhook: { url: HOOK } })),
  }),
  scenario({
    operationId: "applyConfig",
    proves: ["config.applied", "business_agent.enabled", "connector.created"],
    actor: "api_key",
    act: (stage) => stage.api("POST", "/config/apply", agentDoc([shopConnector("first-bearer-secret-1111")])),
    secrets: () => ["first-bearer-secret-1111"],
  }),
  scenario({
    operationId: "applyConfig",
    proves: ["config.applied", "business_agent.disabled", "connector.updated", "connector.deleted"],
    actor: "api_key",
    setup: agentApplied,
    act: (stage) => stage.api("POST", "/config/apply", agentDoc([shopConnector("second-bearer-secret-2222")], { enabled: false })),
    secrets: () => ["first-bearer-secret-1111", "second-bearer-secret-2222"],
  }),
  scenario({
    operationId: "createAutomation",
    proves: ["automation.created"],
    actor: "api_key",
    act: (stage) => stage.api("POST", "/automations", automationEntry("audited-create")),
  }),
  scenario({
    operationId: "updateAutomation",
    proves: ["automation.updated"],
    actor: "user",
    setup: async (stage) => ok(await stage.api("POST", "/automations", automationEntry("audited-update")), "create").body as { id: string },
    act: (stage, created) => stage.dash("PATCH", `/automations/${created.id}`, { active: false }),
  }),
  scenario({
    operationId: "deleteAutomation",
    proves: ["automation.deleted"],
    actor: "api_key",
    setup: async (stage) => ok(await stage.api("POST", "/automations", automationEntry("audited-delete")), "create").body as { id: string },
    act: (stage, created) => stage.api("DELETE", `/automations/${created.id}`),
  }),
];

/** The agent and its connectors through the API. */
export const agentScenarios = [
  scenario({
    operationId: "applyBusinessAgent",
    proves: ["business_agent.enabled"],
    actor: "api_key",
    act: (stage) => stage.api("POST", "/business-agents", { channel_id: "ch_sandbox", persona: "Helpful" }),
  }),
  scenario({
    operationId: "applyBusinessAgent",
    proves: ["business_agent.disabled"],
    actor: "user",
    setup: async (stage) => ok(await stage.api("POST", "/business-agents", { channel_id: "ch_sandbox", persona: "Helpful" }), "apply"),
    act: (stage) => stage.dash("POST", "/business-agents", { channel_id: "ch_sandbox", enabled: false }),
  }),
  scenario({
    operationId: "putBusinessAgentSettings",
    proves: ["business_agent.enabled"],
    actor: "api_key",
    setup: async (stage) =>
      ok(await stage.api("POST", "/business-agents", { channel_id: "ch_sandbox", persona: "Helpful", enabled: false }), "apply").body.id as string,
    act: (stage, agentId) => stage.api("PUT", `/business-agents/${agentId}/settings`, { enabled: true }),
  }),
  scenario({
    operationId: "putBusinessAgentSettings",
    proves: ["business_agent.disabled"],
    actor: "user",
    setup: async (stage) => ok(await stage.api("POST", "/business-agents", { channel_id: "ch_sandbox", persona: "Helpful" }), "apply").body.id as string,
    act: (stage, agentId) => stage.dash("PUT", `/business-agents/${agentId}/settings`, { enabled: false }),
  }),
  scenario({
    operationId: "createBusinessAgentConnector",
    proves: ["connector.created"],
    actor: "api_key",
    setup: (stage) => seedAgent(stage.h.app, stage.seeded.projectId),
    act: (stage, agentId) =>
      stage.api("POST", `/business-agents/${agentId}/connectors`, {
        name: "Orders",
        type: "API",
        config: { base_url: "https://orders.example.com", auth_type: "API_KEY", auth_header: "X-Api-Key", secret: "orders-api-secret-3333" },
      }),
    secrets: () => ["orders-api-secret-3333"],
  }),
  scenario({
    operationId: "updateBusinessAgentConnector",
    proves: ["connector.updated"],
    actor: "api_key",
    setup: async (stage) => {
      const agentId = await seedAgent(stage.h.app, stage.seeded.projectId);
      const body = { name: "Orders", type: "API", config: { base_url: "https://orders.example.com", auth_type: "BEARER", secret: "old-orders-secret-4444" } };
      return ok(await stage.api("POST", `/business-agents/${agentId}/connectors`, body), "connector").body.id as string;
    },
    act: (stage, id) =>
      stage.api("PATCH", `/business-agent-connectors/${id}`, {
        config: { base_url: "https://orders.example.com", auth_type: "BEARER", secret: "new-orders-secret-5555" },
      }),
    secrets: () => ["old-orders-secret-4444", "new-orders-secret-5555"],
  }),
  scenario({
    operationId: "deleteBusinessAgentConnector",
    proves: ["connector.deleted"],
    actor: "user",
    setup: async (stage) => {
      const agentId = await seedAgent(stage.h.app, stage.seeded.projectId);
      return ok(await stage.api("POST", `/business-agents/${agentId}/connectors`, { name: "Forms", type: "FLOWS" }), "connector").body.id as string;
    },
    act: (stage, id) => stage.dash("DELETE", `/business-agent-connectors/${id}`),
  }),
];
