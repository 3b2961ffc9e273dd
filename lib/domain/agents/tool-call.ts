import { and, asc, eq } from "drizzle-orm";
import { businessAgentConnectors, businessAgentTools } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { sendFlow } from "@/lib/domain/flows/send";
import { assertArgumentsMatch } from "@/lib/domain/functions/input-schema";
import { loadRunnable, runFunction } from "@/lib/domain/functions/run";
import { publicErrorOf } from "@/lib/public-error";
import { SvcError } from "@/lib/errors";
import { getConnectorRowOrThrow, type ToolRow } from "./agent-row";
import { apiConfigOf } from "./connector-secret";
import { callApiEndpoint } from "./tool-api-call";

export type { ToolRow } from "./agent-row";

/**
 * Calling one of an agent's tools (decisions.md "Business agents"), for the agent engine, test and
 * eval. A call never throws: whatever goes wrong is the result's `error` {code, message}, so one bad
 * tool cannot end a conversation turn. Codes: invalid_tool_arguments (input_schema), connector_disabled,
 * invalid_tool_backing, function_error (the run failed: the message is the run's error), tool_http_error,
 * tool_url_refused, tool_timeout, tool_unreachable, tool_response_too_large, and any SvcError code a
 * send or a run raises (flow_not_sendable, outside_messaging_window, function_inactive, ...).
 */

export interface ToolCallInput {
  tool: ToolRow;
  arguments: Record<string, unknown>;
  contact: { id: string; phone: string | null; name: string | null };
  conversationId: string | null;
  channelId: string;
  /** Test / eval: a FLOW tool is reported ({flow_id, sent: false}), not sent. */
  dryRun: boolean;
}

export interface ToolCallResult {
  tool: string;
  arguments: Record<string, unknown>;
  result: unknown;
  error: { code: string; message: string } | null;
}

type Outcome = Pick<ToolCallResult, "result" | "error">;

/** The agent's callable tools: those of its ACTIVE connectors, oldest first. */
export async function loadAgentTools(ctx: Pick<Ctx, "db" | "project">, businessAgentId: string): Promise<ToolRow[]> {
  const rows = await ctx.db
    .select({ tool: businessAgentTools })
    .from(businessAgentTools)
    .innerJoin(businessAgentConnectors, eq(businessAgentConnectors.id, businessAgentTools.connectorId))
    .where(
      and(
        eq(businessAgentTools.projectId, ctx.project.id),
        eq(businessAgentTools.businessAgentId, businessAgentId),
        eq(businessAgentConnectors.status, "ACTIVE"),
      ),
    )
    .orderBy(asc(businessAgentTools.createdAt), asc(businessAgentTools.id));
  return rows.map((row) => row.tool);
}

function fail(code: string, message: string): Outcome {
  return { result: null, error: { code, message } };
}

function argumentIssues(tool: ToolRow, args: Record<string, unknown>): Outcome | null {
  if (!tool.inputSchema) return null;
  try {
    assertArgumentsMatch(tool.inputSchema, args);
    return null;
  } catch (error) {
    if (!SvcError.is(error)) throw error;
    const issues = Object.entries((error.details.issues ?? {}) as Record<string, string[]>).map(([path, messages]) => `${path}: ${messages.join(", ")}`);
    return fail("invalid_tool_arguments", `The arguments do not match tool ${tool.name}'s input_schema (${issues.join("; ")}).`);
  }
}

function stringConfig(tool: ToolRow, key: string): string | undefined {
  const value = tool.config?.[key];
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

async function callFlow(ctx: Ctx, input: ToolCallInput): Promise<Outcome> {
  const flowId = input.tool.backingFlowId;
  if (!flowId) return fail("invalid_tool_backing", `Tool ${input.tool.name} has no backing flow.`);
  if (input.dryRun) return { result: { flow_id: flowId, sent: false }, error: null };
  const sent = await sendFlow(ctx, {
    channel_id: input.channelId,
    flow_id: flowId,
    ...(input.conversationId ? { conversation_id: input.conversationId } : { contact_id: input.contact.id }),
    body_text: stringConfig(input.tool, "body_text") ?? input.tool.description ?? "Tap the button to continue.",
    flow_cta: stringConfig(input.tool, "flow_cta"),
    idempotencyKey: null,
  });
  return { result: { flow_id: flowId, sent: true, message_id: sent.message_id, dispatch_id: sent.id }, error: null };
}

async function callFunction(ctx: Ctx, input: ToolCallInput): Promise<Outcome> {
  const functionId = input.tool.backingFunctionId;
  if (!functionId) return fail("invalid_tool_backing", `Tool ${input.tool.name} has no backing function.`);
  const runnable = await loadRunnable(ctx, functionId);
  const outcome = await runFunction(ctx, runnable, {
    eventType: "agent_tool",
    event: {
      type: "agent_tool",
      tool: input.tool.name,
      arguments: input.arguments,
      contact: input.contact,
      conversation_id: input.conversationId,
      channel_id: input.channelId,
    },
  });
  if (outcome.status !== "ok") return fail("function_error", outcome.error ?? "The function run failed.");
  return { result: outcome.result ?? null, error: null };
}

async function dispatchCall(ctx: Ctx, input: ToolCallInput): Promise<Outcome> {
  const { tool } = input;
  const connector = await getConnectorRowOrThrow(ctx, tool.connectorId);
  if (connector.status !== "ACTIVE") return fail("connector_disabled", `Connector ${connector.id} of tool ${tool.name} is DISABLED.`);
  const issues = argumentIssues(tool, input.arguments);
  if (issues) return issues;
  switch (tool.backingType) {
    case "NOOP":
      return { result: tool.config?.response ?? null, error: null };
    case "FLOW":
      return callFlow(ctx, input);
    case "HOSTED_FUNCTION":
      return callFunction(ctx, input);
    case "API_ENDPOINT": {
      const api = apiConfigOf(connector);
      const method = tool.config?.method;
      const path = tool.config?.path;
      if (!api || (method !== "GET" && method !== "POST") || typeof path !== "string") {
        return fail("invalid_tool_backing", `Tool ${tool.name} needs config {method, path} on an API connector with a valid config.`);
      }
      return callApiEndpoint(ctx, { connector: api, method, path, arguments: input.arguments });
    }
  }
}

/** Calls one tool; never throws: a failure is the result's `error`. */
export async function callTool(ctx: Ctx, input: ToolCallInput): Promise<ToolCallResult> {
  let outcome: Outcome;
  try {
    outcome = await dispatchCall(ctx, input);
  } catch (error) {
    // Through the one error boundary: a database error's SQL and parameters never reach the agent or its thread.
    outcome = SvcError.is(error) ? fail(error.code, error.message) : fail("tool_failed", publicErrorOf(error, `agents tool ${input.tool.name}`).message);
  }
  return { tool: input.tool.name, arguments: input.arguments, ...outcome };
}
