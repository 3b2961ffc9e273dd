import type { Example, OperationExamples } from "./types";
import { AT, CHANNEL_ID, LATER, PROJECT_ID, list } from "./fixtures";

/**
 * Examples of the business agent operations: the "Support bot" project's agent on its dedicated
 * PLATFORM_A number (fixtures.ts), and a second one on the shared sandbox. Shapes follow
 * lib/domain/agents/serialize.ts; error messages are the ones lib/domain/agents produces.
 */
const AGENT_ID = "ba_01jxq6a1b2c3d4e5f6g7h8j9k0";
const SANDBOX_AGENT_ID = "ba_01jxq6b3c4d5e6f7g8h9j0k1m2";
const META_AGENT_ID = "918273645546372";

const SETTINGS = {
  enabled: true,
  persona: "A friendly assistant of Acme's support team. Short answers.",
  language: "en",
  handoff: { keywords: ["human", "agent", "person"] },
  knowledge: { faq: [{ q: "What are your opening hours?", a: "Monday to Friday, 9:00 to 18:00." }] },
  fallback_message: "I did not get that. Type 'human' to talk to a person.",
};

const ELIGIBLE = { eligible: true, reasons: [], checked_at: AT };
const SANDBOX_ELIGIBILITY = { eligible: true, reasons: ["SANDBOX_TEST_ONLY"], checked_at: AT };

const agent = (overrides: Record<string, unknown> = {}) => ({
  object: "business_agent",
  id: AGENT_ID,
  project_id: PROJECT_ID,
  channel_id: CHANNEL_ID,
  meta_agent_id: META_AGENT_ID,
  status: "ACTIVE",
  settings: SETTINGS,
  eligibility: ELIGIBLE,
  error_message: null,
  created_at: AT,
  updated_at: LATER,
  ...overrides,
});

const SANDBOX_AGENT = agent({
  id: SANDBOX_AGENT_ID,
  channel_id: "ch_sandbox",
  meta_agent_id: null,
  settings: { enabled: true, persona: "Test persona" },
  eligibility: SANDBOX_ELIGIBILITY,
});

const SKILLS = [
  { name: "order-status", description: "Tells a customer where their order is.", triggers: ["order", "tracking"], tool: "lookup_order" },
  { name: "opening-hours", description: "Answers when the shop is open.", triggers: ["hours", "open"], response: "Monday to Friday, 9:00 to 18:00." },
];

const agentNotFound: Record<string, Example> = {
  notFound: {
    summary: "No such agent in this project (another project's id answers the same)",
    value: { error: "not_found", message: `No business agent with id '${AGENT_ID}'.` },
  },
};

const notReady: Example = {
  summary: "The number's business is not verified yet",
  value: {
    error: "channel_not_ready",
    message: `Channel ${CHANNEL_ID} cannot carry a business agent: BUSINESS_NOT_VERIFIED. Use the project's own connected PLATFORM_A number (GET /readiness explains each blocker), or the shared sandbox (ch_sandbox) for testing.`,
    channel_id: CHANNEL_ID,
    blockers: ["BUSINESS_NOT_VERIFIED"],
    eligibility: { eligible: false, reasons: ["BUSINESS_NOT_VERIFIED"], checked_at: AT },
  },
};

export const businessAgentExamples: Record<string, OperationExamples> = {
  listBusinessAgents: {
    response: {
      page: { summary: "The dedicated number's agent and a sandbox one", value: list([agent(), SANDBOX_AGENT]) },
      filtered: { summary: "?channel_id=ch_sandbox", value: list([SANDBOX_AGENT]) },
    },
  },
  applyBusinessAgent: {
    request: {
      first: { summary: "A first apply on the project's number, with an extra key", value: { channel_id: CHANNEL_ID, ...SETTINGS } },
      disable: { summary: "Switch the agent off", value: { channel_id: CHANNEL_ID, enabled: false } },
    },
    response: {
      provisioning: {
        summary: "First apply: PROVISIONING until the provider answers",
        value: agent({ status: "PROVISIONING", meta_agent_id: null, updated_at: AT }),
      },
      disabled: { summary: "enabled: false", value: agent({ status: "DISABLED", settings: { ...SETTINGS, enabled: false } }) },
    },
    errors: { 412: { notReady } },
  },
  getBusinessAgentEligibility: {
    response: {
      dedicated: { summary: "The project's verified number", value: { object: "business_agent_eligibility", channel_id: CHANNEL_ID, eligibility: ELIGIBLE } },
      sandbox: {
        summary: "The shared sandbox: for testing",
        value: { object: "business_agent_eligibility", channel_id: "ch_sandbox", eligibility: SANDBOX_ELIGIBILITY },
      },
      messenger: {
        summary: "A PLATFORM_B channel",
        value: {
          object: "business_agent_eligibility",
          channel_id: "ch_01jxq4n5a6b7c8d9e0f1g2h3j4",
          eligibility: { eligible: false, reasons: ["CHANNEL_NOT_PLATFORM_A"], checked_at: AT },
        },
      },
    },
    errors: {
      404: {
        notFound: {
          summary: "A channel this project cannot see",
          value: { error: "not_found", message: "No channel with id 'ch_01jxq4n5a6b7c8d9e0f1g2h3j4'." },
        },
      },
    },
  },
  getBusinessAgent: {
    response: {
      active: { summary: "Provisioned", value: agent() },
      failed: {
        summary: "The provider refused",
        value: agent({
          status: "ERROR",
          meta_agent_id: null,
          error_message:
            "The provider refused the agent (code 100): (#100) The phone number is not eligible for a business agent. Fix the cause and apply the agent again (POST /business-agents).",
        }),
      },
    },
    errors: { 404: agentNotFound },
  },
  getBusinessAgentSettings: {
    response: {
      settings: {
        summary: "Every key applied, extra ones included",
        value: { object: "business_agent_settings", business_agent_id: AGENT_ID, settings: SETTINGS },
      },
    },
    errors: { 404: agentNotFound },
  },
  putBusinessAgentSettings: {
    request: { persona: { summary: "Change the persona only", value: { persona: "Formal and brief.", tone: "formal" } } },
    response: {
      merged: {
        summary: "The other keys stay",
        value: { object: "business_agent_settings", business_agent_id: AGENT_ID, settings: { ...SETTINGS, persona: "Formal and brief.", tone: "formal" } },
      },
    },
    errors: { 404: agentNotFound },
  },
  getBusinessAgentSkills: {
    response: {
      skills: { summary: "Two skills", value: { object: "business_agent_skills", business_agent_id: AGENT_ID, data: SKILLS, result: { count: 2 } } },
    },
    errors: { 404: agentNotFound },
  },
  putBusinessAgentSkills: {
    request: { replace: { summary: "Replace the list", value: { business_agent_id: AGENT_ID, skills: SKILLS } } },
    response: {
      replaced: {
        summary: "What changed, by name",
        value: {
          object: "business_agent_skills",
          business_agent_id: AGENT_ID,
          data: SKILLS,
          result: { count: 2, added: ["opening-hours"], updated: [], removed: [] },
        },
      },
    },
    errors: {
      404: agentNotFound,
      422: {
        unknownTool: {
          summary: "A skill names a tool the agent does not have",
          value: {
            error: "unprocessable",
            message: "A skill names a tool this agent does not have. Create the tool first (POST /business-agent-connectors/{id}/tools), or fix the name.",
            issues: { "skills.0.tool": [`No tool named 'lookup_order' on agent ${AGENT_ID}.`] },
          },
        },
      },
    },
  },
};
