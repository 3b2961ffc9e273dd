import { and, eq } from "drizzle-orm";
import { businessAgentTools } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { assertJsonSchema } from "@/lib/domain/functions/input-schema";
import { isUniqueViolation } from "@/lib/domain/shared/unique-violation";
import { SvcError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getConnectorRowOrThrow, getToolRowOrThrow, type ToolRow } from "./agent-row";
import { resolveBacking, type BackingType } from "./tool-backing";

/**
 * A connector's tools (service-spec "Business agent family": Connector tool; decisions.md "Business
 * agents"). The name is what the agent calls the tool by: unique per agent (409 tool_conflict).
 */

export interface ToolCreateInput {
  name: string;
  backing_type: BackingType;
  description?: string | null | undefined;
  backing_flow_id?: string | null | undefined;
  backing_function_id?: string | null | undefined;
  input_schema?: Record<string, unknown> | null | undefined;
  config?: Record<string, unknown> | null | undefined;
}

export type ToolUpdateInput = Partial<ToolCreateInput>;

/** The wire Connector tool; `business_agent_id` and `config` (no secret ever lives there) are ours beyond the spec's list. */
export function serializeTool(row: ToolRow) {
  return {
    object: "business_agent_connector_tool" as const,
    id: row.id,
    connector_id: row.connectorId,
    business_agent_id: row.businessAgentId,
    meta_tool_id: row.metaToolId,
    name: row.name,
    description: row.description,
    backing_type: row.backingType,
    backing_flow_id: row.backingFlowId,
    backing_function_id: row.backingFunctionId,
    input_schema: row.inputSchema ?? null,
    config: row.config ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function nameTaken(name: string) {
  return new SvcError("tool_conflict", `The agent already has a tool named '${name}'. Choose another name, or edit that tool.`, {
    issues: { name: ["Already used by a tool of this agent."] },
  });
}

async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, "business_agent_tools_agent_name")) throw nameTaken(name);
    throw error;
  }
}

/** POST /business-agent-connectors/{id}/tools. */
export async function createTool(ctx: Ctx, connectorId: string, input: ToolCreateInput) {
  const connector = await getConnectorRowOrThrow(ctx, connectorId);
  if (input.input_schema) assertJsonSchema(input.input_schema);
  const backing = await resolveBacking(ctx, connector, {
    backing_type: input.backing_type,
    backing_flow_id: input.backing_flow_id ?? null,
    backing_function_id: input.backing_function_id ?? null,
    config: input.config ?? null,
  });
  const [row] = await uniqueName(input.name, () =>
    ctx.db
      .insert(businessAgentTools)
      .values({
        id: newId("businessAgentTool", ctx.now.getTime()),
        projectId: ctx.project.id,
        businessAgentId: connector.businessAgentId,
        connectorId: connector.id,
        name: input.name,
        description: input.description ?? null,
        backingType: input.backing_type,
        ...backing,
        inputSchema: input.input_schema ?? null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .returning(),
  );
  return serializeTool(row!);
}

/** A key the request left out keeps the stored value, except the backing id of a backing type the tool no longer has. */
function kept<T>(given: T | undefined, stored: T, stillApplies = true): T | null {
  if (given !== undefined) return given;
  return stillApplies ? stored : null;
}

/** PATCH /business-agent-tools/{id}: the merged tool is checked as a whole, like a create. */
export async function updateTool(ctx: Ctx, id: string, input: ToolUpdateInput) {
  const row = await getToolRowOrThrow(ctx, id);
  const connector = await getConnectorRowOrThrow(ctx, row.connectorId);
  if (input.input_schema) assertJsonSchema(input.input_schema);
  const type = input.backing_type ?? row.backingType;
  const sameType = type === row.backingType;
  const backing = await resolveBacking(ctx, connector, {
    backing_type: type,
    backing_flow_id: kept(input.backing_flow_id, row.backingFlowId, sameType),
    backing_function_id: kept(input.backing_function_id, row.backingFunctionId, sameType),
    config: kept(input.config, row.config),
  });
  const name = input.name ?? row.name;
  const [updated] = await uniqueName(name, () =>
    ctx.db
      .update(businessAgentTools)
      .set({
        name,
        description: kept(input.description, row.description),
        backingType: type,
        ...backing,
        inputSchema: kept(input.input_schema, row.inputSchema),
        updatedAt: ctx.now,
      })
      .where(and(eq(businessAgentTools.projectId, ctx.project.id), eq(businessAgentTools.id, row.id)))
      .returning(),
  );
  return serializeTool(updated!);
}

/** DELETE /business-agent-tools/{id}. */
export async function deleteTool(ctx: Ctx, id: string) {
  const row = await getToolRowOrThrow(ctx, id);
  await ctx.db.delete(businessAgentTools).where(and(eq(businessAgentTools.projectId, ctx.project.id), eq(businessAgentTools.id, row.id)));
  return { object: "business_agent_connector_tool" as const, id: row.id, deleted: true as const };
}
