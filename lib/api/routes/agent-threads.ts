import { defineRoute } from "@/lib/api/route";
import {
  AgentEvalRequest,
  AgentEvalResponse,
  AgentTestRequest,
  AgentTestResponse,
  ThreadControlRequest,
  ThreadControlState,
} from "@/lib/api/schemas/agent-threads";
import { threadControl } from "@/lib/domain/agents/thread-control";
import { evalAgent, testAgent } from "@/lib/domain/agents/test-eval";

const tag = "Business agents";

export const agentThreadRoutes = [
  defineRoute({
    method: "POST",
    path: "/business-agents/thread-control",
    operationId: "businessAgentThreadControl",
    summary: "Take, pass or read who owns a customer's thread",
    description:
      "One state per (channel, contact). Owners: PROVIDER_AGENT (the business agent answers), SERVICE (inbound follows the webhook), BUSINESS_INBOX (a person; the conversation's handoff is on). " +
      "Until the first take or pass the owner is PROVIDER_AGENT while the project routes AGENT and the channel's agent is ACTIVE, else SERVICE. " +
      "take → SERVICE; pass with business_agent_id → PROVIDER_AGENT (the ACTIVE agent of channel_id: another channel's agent → 400, an agent not ACTIVE → 409 conflict); pass without → BUSINESS_INBOX; leaving BUSINESS_INBOX turns the handoff off. " +
      "get reads (one operation for all three actions, so get needs the write scope too).",
    tag,
    scope: "business_agents:write",
    audit: ["thread.taken_over", "thread.passed"],
    body: ThreadControlRequest,
    response: ThreadControlState,
    handler: ({ ctx, body }) => threadControl(ctx, body),
  }),
  defineRoute({
    method: "POST",
    path: "/business-agents/test",
    operationId: "testBusinessAgent",
    summary: "Run the agent on one message without sending anything",
    description:
      "The deterministic agent: a handoff keyword, else the first skill whose trigger matches (its tool called in dry run: a FLOW tool is reported, not sent), else the best FAQ entry, else settings.fallback_message, else silence. " +
      "Answers {reply, skill, tool_calls, handoff, trace}. Needs the write scope: a skill's tool may call your API endpoint or hosted function.",
    tag,
    scope: "business_agents:write",
    audit: { exempt: "runs the agent on a test message: stores no configuration" },
    body: AgentTestRequest,
    response: AgentTestResponse,
    handler: ({ ctx, body }) => testAgent(ctx, body),
  }),
  defineRoute({
    method: "POST",
    path: "/business-agents/eval",
    operationId: "evalBusinessAgent",
    summary: "Score the agent against test cases (synchronous, at most 50)",
    description:
      "Each case is one input or a conversation of turns (a handoff ends it), checked with contains, not_contains, tool_called, tool_arguments, handoff, silent; llm_judge is skipped offline and never counted as passed. " +
      "score = weight of passed cases / weight of evaluated cases (weight default 1); a case with no evaluated check is skipped. More than 50 cases → 400.",
    tag,
    scope: "business_agents:write",
    audit: { exempt: "runs the agent on test cases: stores no configuration" },
    body: AgentEvalRequest,
    response: AgentEvalResponse,
    handler: ({ ctx, body }) => evalAgent(ctx, body),
  }),
];
