import { and, eq } from "drizzle-orm";
import { flows, hostedFunctions } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { functionAddressed } from "@/lib/domain/functions/crud";
import { SvcError } from "@/lib/errors";
import type { ConnectorRow, ToolRow } from "./agent-row";

/**
 * What backs a tool (decisions.md "Business agents"): FLOW → a published flow of the project;
 * HOSTED_FUNCTION → a deployed, active function of the project; API_ENDPOINT → `config {method:
 * GET|POST, path}` on an API connector; NOOP → `config {response}`. Anything else, a missing or
 * another project's id included, is 422 invalid_tool_backing. The call re-checks at run time (a flow
 * may be deprecated, a function switched off, later): this is the early, clear refusal.
 */

export type BackingType = ToolRow["backingType"];
const API_METHODS = ["GET", "POST"] as const;

export interface BackingInput {
  backing_type: BackingType;
  backing_flow_id: string | null;
  backing_function_id: string | null;
  config: Record<string, unknown> | null;
}

export interface Backing {
  backingFlowId: string | null;
  backingFunctionId: string | null;
  config: Record<string, unknown> | null;
}

function invalidBacking(message: string, details: Record<string, unknown> = {}): SvcError {
  return new SvcError("invalid_tool_backing", message, details);
}

async function publishedFlowId(ctx: Ctx, id: string | null): Promise<string> {
  if (!id) throw invalidBacking("A FLOW tool needs backing_flow_id: the id of a published flow of this project.", { backing_type: "FLOW" });
  const [flow] = await ctx.db
    .select({ id: flows.id, status: flows.status })
    .from(flows)
    .where(and(eq(flows.projectId, ctx.project.id), eq(flows.id, id)))
    .limit(1);
  if (!flow) throw invalidBacking(`No flow with id '${id}' in this project.`, { backing_type: "FLOW", backing_flow_id: id });
  if (flow.status !== "PUBLISHED") {
    throw invalidBacking(`Flow ${id} is ${flow.status}: a FLOW tool sends a published flow. Publish it first (POST /flows/${id}/publish).`, {
      backing_type: "FLOW",
      backing_flow_id: id,
    });
  }
  return flow.id;
}

async function runnableFunctionId(ctx: Ctx, idOrSlug: string | null): Promise<string> {
  if (!idOrSlug) {
    throw invalidBacking("A HOSTED_FUNCTION tool needs backing_function_id: a deployed, active function of this project.", { backing_type: "HOSTED_FUNCTION" });
  }
  const [fn] = await ctx.db
    .select({ id: hostedFunctions.id, slug: hostedFunctions.slug, active: hostedFunctions.activeVersionId, isActive: hostedFunctions.isActive })
    .from(hostedFunctions)
    .where(functionAddressed(ctx, idOrSlug))
    .limit(1);
  const details = { backing_type: "HOSTED_FUNCTION", backing_function_id: idOrSlug };
  if (!fn) throw invalidBacking(`No function with id '${idOrSlug}' in this project.`, details);
  if (!fn.active) throw invalidBacking(`Function ${fn.slug} has no deployed version. Deploy it first (POST /functions/${fn.id}/deploy).`, details);
  if (!fn.isActive) throw invalidBacking(`Function ${fn.slug} is inactive. Set is_active to true (PATCH /functions/${fn.id}).`, details);
  return fn.id;
}

function apiEndpointConfig(connector: ConnectorRow, config: Record<string, unknown> | null): Record<string, unknown> {
  if (connector.type !== "API") {
    throw invalidBacking(`An API_ENDPOINT tool belongs to an API connector; connector ${connector.id} is ${connector.type}.`, {
      backing_type: "API_ENDPOINT",
      connector_id: connector.id,
    });
  }
  const method = config?.method;
  const path = config?.path;
  if (!API_METHODS.includes(method as (typeof API_METHODS)[number]) || typeof path !== "string" || !path.startsWith("/") || path.length > 1000) {
    throw invalidBacking("An API_ENDPOINT tool's config is {method: GET|POST, path: \"/...\"} (the path is joined to the connector's base_url).", {
      backing_type: "API_ENDPOINT",
    });
  }
  return config!;
}

function noopConfig(config: Record<string, unknown> | null): Record<string, unknown> {
  if (!config || !Object.hasOwn(config, "response")) {
    throw invalidBacking("A NOOP tool's config is {response}: the value the call returns as is.", { backing_type: "NOOP" });
  }
  return config;
}

/** The ids of the other backings must not be given: a FLOW tool with a function id is a mistake to report. */
function assertNoStrayIds(input: BackingInput) {
  if (input.backing_type !== "FLOW" && input.backing_flow_id) {
    throw invalidBacking(`backing_flow_id is for FLOW tools; this one is ${input.backing_type}.`, { backing_type: input.backing_type });
  }
  if (input.backing_type !== "HOSTED_FUNCTION" && input.backing_function_id) {
    throw invalidBacking(`backing_function_id is for HOSTED_FUNCTION tools; this one is ${input.backing_type}.`, { backing_type: input.backing_type });
  }
}

/** The checked backing to store (the function's id even when a slug was given). */
export async function resolveBacking(ctx: Ctx, connector: ConnectorRow, input: BackingInput): Promise<Backing> {
  assertNoStrayIds(input);
  switch (input.backing_type) {
    case "FLOW":
      return { backingFlowId: await publishedFlowId(ctx, input.backing_flow_id), backingFunctionId: null, config: input.config };
    case "HOSTED_FUNCTION":
      return { backingFlowId: null, backingFunctionId: await runnableFunctionId(ctx, input.backing_function_id), config: input.config };
    case "API_ENDPOINT":
      return { backingFlowId: null, backingFunctionId: null, config: apiEndpointConfig(connector, input.config) };
    case "NOOP":
      return { backingFlowId: null, backingFunctionId: null, config: noopConfig(input.config) };
  }
}
