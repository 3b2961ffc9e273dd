import type { Example, OperationExamples } from "./types";
import { AT, CHANNEL_ID, CONTACT_ID, LATER, PROJECT_ID } from "./fixtures";

/**
 * Examples of thread control, test and eval: the "Support bot" project's agent on its dedicated
 * number (fixtures.ts) with a FAQ, a handoff keyword list and an "order status" skill backed by a
 * NOOP tool. Shapes follow lib/domain/agents/thread-control.ts and test-eval.ts.
 */
const AGENT_ID = "ba_01jxq6a1b2c3d4e5f6g7h8j9k0";
const THREAD_ID = "thc_01jxq7a1b2c3d4e5f6g7h8j9k0";

const state = (overrides: Record<string, unknown>) => ({
  object: "thread_control_state",
  id: THREAD_ID,
  project_id: PROJECT_ID,
  channel_id: CHANNEL_ID,
  contact_id: CONTACT_ID,
  business_agent_id: null,
  owner: "SERVICE",
  reason: null,
  meta_thread_id: null,
  meta_result: {},
  created_at: AT,
  updated_at: LATER,
  ...overrides,
});

const agentNotFound: Record<string, Example> = {
  notFound: { summary: "Not an agent of this project", value: { error: "not_found", message: `No business agent with id '${AGENT_ID}'.` } },
};

const TOOL_CALL = {
  tool: "order_status",
  arguments: { text: "where is my order?", contact: { id: "test_contact", name: "Ana", phone: null } },
  result: { text: "Your order ships tomorrow." },
  error: null,
};

const test = (result: Record<string, unknown>) => ({ object: "business_agent_test", business_agent_id: AGENT_ID, result });

export const agentThreadExamples: Record<string, OperationExamples> = {
  businessAgentThreadControl: {
    request: {
      take: { summary: "Your service takes the thread", value: { action: "take", channel_id: CHANNEL_ID, contact_id: CONTACT_ID, reason: "VIP customer" } },
      passInbox: {
        summary: "Hand the thread to a person",
        value: { action: "pass", channel_id: CHANNEL_ID, contact_id: CONTACT_ID, reason: "refund request" },
      },
      passAgent: {
        summary: "Give the thread back to the agent",
        value: { action: "pass", channel_id: CHANNEL_ID, contact_id: CONTACT_ID, business_agent_id: AGENT_ID, payload: { note: "resolved" } },
      },
      get: { summary: "Who owns the thread", value: { action: "get", channel_id: CHANNEL_ID, contact_id: CONTACT_ID } },
    },
    response: {
      taken: { summary: "SERVICE owns it", value: state({ reason: "VIP customer", meta_result: { action: "take", success: true } }) },
      inbox: {
        summary: "A person owns it; the conversation's handoff is on",
        value: state({ owner: "BUSINESS_INBOX", reason: "refund request", meta_result: { action: "pass", success: true } }),
      },
      default: {
        summary: "Never taken or passed: the default (project routing AGENT, agent ACTIVE)",
        value: state({ owner: "PROVIDER_AGENT", business_agent_id: AGENT_ID, updated_at: AT }),
      },
    },
    errors: {
      400: {
        otherChannel: {
          summary: "The agent of another channel",
          value: {
            error: "invalid_request",
            message: `Business agent ${AGENT_ID} is the agent of channel ch_sandbox, not of ${CHANNEL_ID}.`,
            issues: { business_agent_id: ["must be the agent of channel_id"] },
          },
        },
      },
      404: agentNotFound,
      409: {
        notActive: {
          summary: "Pass to an agent that cannot answer",
          value: {
            error: "conflict",
            message: `Business agent ${AGENT_ID} is PROVISIONING: a thread can be passed to an ACTIVE agent only.`,
            status: "PROVISIONING",
          },
        },
      },
    },
  },
  testBusinessAgent: {
    request: {
      faq: { summary: "A FAQ question", value: { business_agent_id: AGENT_ID, input: "what are your opening hours?" } },
      skill: {
        summary: "A skill with a tool, as a named contact",
        value: { business_agent_id: AGENT_ID, input: "where is my order?", scenario: { contact: { name: "Ana" } } },
      },
    },
    response: {
      faq: {
        summary: "Answered from the FAQ",
        value: test({
          reply: "Monday to Friday, 9:00 to 18:00.",
          skill: null,
          tool_calls: [],
          handoff: false,
          trace: [
            { step: "handoff", matched: false, detail: "no handoff keyword (human, agent, person)" },
            { step: "skill", matched: false, detail: "no skill trigger matched" },
            { step: "faq", matched: true, detail: "faq #0 'What are your opening hours?' (2 of 2 words: opening, hours)" },
          ],
        }),
      },
      skill: {
        summary: "A skill ran its tool (dry run) and replied with its text",
        value: test({
          reply: "Your order ships tomorrow.",
          skill: "order_status",
          tool_calls: [TOOL_CALL],
          handoff: false,
          trace: [
            { step: "handoff", matched: false, detail: "no handoff keyword (human, agent, person)" },
            { step: "skill", matched: true, detail: "skill 'order_status' (trigger 'order')" },
            { step: "tool", matched: true, detail: "tool 'order_status' called" },
          ],
        }),
      },
    },
    errors: { 404: agentNotFound },
  },
  evalBusinessAgent: {
    request: {
      suite: {
        summary: "Three cases, one judged by a model",
        value: {
          business_agent_id: AGENT_ID,
          scenario: {
            cases: [
              { name: "hours", input: "when are you open? opening hours", expect: { contains: "Monday", silent: false } },
              {
                name: "order",
                input: "where is my order?",
                expect: { tool_called: "order_status", tool_arguments: { text: "where is my order?" } },
                weight: 2,
              },
              { name: "handoff", turns: ["hello", "I want a human"], expect: { handoff: true, llm_judge: "The agent is polite." } },
              { name: "tone", input: "hi", expect: { llm_judge: "Greets the customer back." } },
            ],
          },
        },
      },
    },
    response: {
      scored: {
        summary: "Three cases evaluated, one skipped (llm_judge only)",
        value: {
          object: "business_agent_eval",
          business_agent_id: AGENT_ID,
          result: {
            score: 1,
            passed: 3,
            failed: 0,
            skipped: 1,
            cases: [
              {
                name: "hours",
                passed: true,
                checks: [
                  { check: "contains", passed: true, detail: "all present" },
                  { check: "silent", passed: true, detail: "1 reply(ies)" },
                ],
              },
              {
                name: "order",
                passed: true,
                checks: [
                  { check: "tool_called", passed: true, detail: "called: order_status" },
                  { check: "tool_arguments", passed: true, detail: "matched in order_status" },
                ],
              },
              {
                name: "handoff",
                passed: true,
                checks: [
                  { check: "handoff", passed: true, detail: "handed off" },
                  { check: "llm_judge", passed: false, detail: "skipped: no language model offline; never counted as passed" },
                ],
              },
              {
                name: "tone",
                passed: false,
                checks: [{ check: "llm_judge", passed: false, detail: "skipped: no language model offline; never counted as passed" }],
              },
            ],
          },
        },
      },
    },
    errors: {
      400: {
        tooMany: {
          summary: "More than 50 cases",
          value: { error: "invalid_request", message: "Invalid body: scenario.cases.", issues: { "scenario.cases": ["At most 50 cases per eval."] } },
        },
      },
      404: agentNotFound,
    },
  },
};
