import { z } from "@/lib/api/zod";
import { Timestamp } from "@/lib/api/schemas/common";
import { THREAD_OWNERS } from "@/lib/db/schema/business-agents";

/**
 * Thread control, test and eval of a business agent on the wire (docs/spec/service-spec.md "Business
 * agent family": ThreadControlRequest, ThreadControlState, TestRequest, Test / Eval response;
 * docs/spec/decisions.md "Business agents").
 */

const JsonObject = z.record(z.string(), z.unknown());
const Id = z.string().min(1).max(200);

export const ThreadControlRequest = z
  .object({
    action: z.enum(["take", "pass", "get"]).openapi({
      description:
        "take → SERVICE; pass → PROVIDER_AGENT with business_agent_id (the ACTIVE agent of channel_id), else BUSINESS_INBOX (the conversation's handoff turns on); get reads.",
    }),
    channel_id: Id,
    contact_id: Id,
    business_agent_id: Id.optional(),
    thread_id: z.string().min(1).max(200).optional().openapi({ description: "The provider's thread id, kept as meta_thread_id." }),
    reason: z.string().max(500).optional(),
    payload: JsonObject.optional().openapi({ description: "Kept in meta_result.payload." }),
  })
  .strict()
  .openapi("ThreadControlRequest");

export const ThreadControlState = z
  .object({
    object: z.literal("thread_control_state"),
    id: z.string(),
    project_id: z.string(),
    channel_id: z.string(),
    contact_id: z.string(),
    business_agent_id: z.string().nullable(),
    owner: z.enum(THREAD_OWNERS).openapi({
      description:
        "The owner in force. Until the first take or pass: PROVIDER_AGENT while the project routes AGENT and the channel's agent is ACTIVE, else SERVICE. A thread passed to an agent that is not ACTIVE follows SERVICE.",
    }),
    reason: z.string().nullable(),
    meta_thread_id: z.string().nullable(),
    meta_result: JsonObject.openapi({ description: "{action, success, payload?} of the last take or pass; {} while the thread follows the default." }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("ThreadControlState");

const ToolCall = z
  .object({
    tool: z.string(),
    arguments: JsonObject,
    result: z.unknown(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .openapi("BusinessAgentToolCall");

const AgentRunResult = z
  .object({
    reply: z.string().nullable().openapi({ description: "What the agent would send; null = silent." }),
    skill: z.string().nullable().openapi({ description: "The skill that matched, if any." }),
    tool_calls: z.array(ToolCall),
    handoff: z.boolean().openapi({ description: "A handoff keyword matched: the thread would pass to BUSINESS_INBOX." }),
    trace: z
      .array(z.object({ step: z.enum(["handoff", "skill", "tool", "faq", "fallback"]), matched: z.boolean(), detail: z.string() }))
      .openapi({ description: "Each rule the engine tried, in order, and why it matched or not." }),
  })
  .openapi("BusinessAgentRunResult");

export const AgentTestRequest = z
  .object({
    business_agent_id: Id,
    input: z.string().max(4096).optional().openapi({ description: "The customer's message." }),
    scenario: JsonObject.optional().openapi({
      description: "contact_id (one of the project's contacts) or contact {name, phone}: the contact the tools see. Other keys are ignored.",
    }),
  })
  .strict()
  .openapi("BusinessAgentTestRequest");

export const AgentTestResponse = z
  .object({ object: z.literal("business_agent_test"), business_agent_id: z.string(), result: AgentRunResult })
  .openapi("BusinessAgentTest");

const OneOrMany = z.union([z.string().min(1).max(4096), z.array(z.string().min(1).max(4096)).min(1).max(20)]);

const EvalExpect = z
  .object({
    contains: OneOrMany.optional(),
    not_contains: OneOrMany.optional(),
    tool_called: z.union([z.string().min(1).max(64), z.array(z.string().min(1).max(64)).min(1).max(20)]).optional(),
    tool_arguments: JsonObject.optional(),
    handoff: z.boolean().optional(),
    silent: z.boolean().optional(),
    llm_judge: z.unknown().optional().openapi({ description: "Criteria for a model judge: skipped offline, never counted as passed." }),
  })
  .strict();

const EvalCase = z
  .object({
    name: z.string().min(1).max(200),
    input: z.string().max(4096).optional(),
    turns: z.array(z.string().max(4096)).min(1).max(20).optional(),
    expect: EvalExpect,
    weight: z.number().positive().max(1000).optional().openapi({ description: "Default 1." }),
  })
  .strict()
  .refine((c) => (c.input === undefined) !== (c.turns === undefined), { message: "Give exactly one of input or turns.", path: ["input"] });

export const AgentEvalRequest = z
  .object({
    business_agent_id: Id,
    scenario: z
      .object({
        cases: z.array(EvalCase).min(1).max(50, { message: "At most 50 cases per eval." }),
        contact_id: Id.optional(),
        contact: JsonObject.optional(),
      })
      .strict(),
  })
  .strict()
  .openapi("BusinessAgentEvalRequest");

export const AgentEvalResponse = z
  .object({
    object: z.literal("business_agent_eval"),
    business_agent_id: z.string(),
    result: z.object({
      score: z
        .number()
        .nullable()
        .openapi({ description: "Weight of passed cases / weight of evaluated (passed + failed) cases; null when none was evaluated." }),
      passed: z.number().int(),
      failed: z.number().int(),
      skipped: z.number().int().openapi({ description: "Cases with no check evaluated offline (only llm_judge, or no expectation)." }),
      cases: z.array(
        z.object({
          name: z.string(),
          passed: z.boolean(),
          checks: z.array(z.object({ check: z.string(), passed: z.boolean(), detail: z.string() })),
        }),
      ),
    }),
  })
  .openapi("BusinessAgentEval");

export type ThreadControlStateWire = z.infer<typeof ThreadControlState>;
export type AgentTestWire = z.infer<typeof AgentTestResponse>;
export type AgentEvalWire = z.infer<typeof AgentEvalResponse>;
