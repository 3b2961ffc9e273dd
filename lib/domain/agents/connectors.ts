import { and, asc, eq, inArray } from "drizzle-orm";
import { businessAgentConnectors, businessAgentTools } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { SvcError, invalidRequest } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getAgentRowOrThrow, getConnectorRowOrThrow, type ConnectorRow, type ToolRow } from "./agent-row";
import { storedConfig, wireConfig, type ConnectorType } from "./connector-secret";
import { serializeTool } from "./tools";
import { recordConnectorChange } from "./connector-audit";

/**
 * An agent's connectors (service-spec "Business agent family": Connector; decisions.md "Business
 * agents"). A connector groups tools; an API connector also carries the base URL and credentials
 * its API_ENDPOINT tools call with.
 */

export interface ConnectorCreateInput {
  business_agent_id?: string | undefined;
  name: string;
  type: ConnectorType;
  config?: Record<string, unknown> | null | undefined;
  status?: ConnectorRow["status"] | undefined;
}

export interface ConnectorUpdateInput {
  name?: string | undefined;
  type?: ConnectorType | undefined;
  config?: Record<string, unknown> | null | undefined;
  status?: ConnectorRow["status"] | undefined;
}

/** Not the API's to set: config-as-code marks the connectors it owns by the document's key. */
export interface ConnectorOwner {
  configKey?: string | undefined;
}

function serializeConnector(row: ConnectorRow, tools: ToolRow[]) {
  return {
    object: "business_agent_connector" as const,
    id: row.id,
    business_agent_id: row.businessAgentId,
    meta_connector_id: row.metaConnectorId,
    name: row.name,
    type: row.type,
    config: wireConfig(row),
    status: row.status,
    tools: tools.map(serializeTool),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function toolsOf(ctx: Ctx, connectorIds: string[]): Promise<Map<string, ToolRow[]>> {
  const byConnector = new Map<string, ToolRow[]>(connectorIds.map((id) => [id, []]));
  if (!connectorIds.length) return byConnector;
  const rows = await ctx.db
    .select()
    .from(businessAgentTools)
    .where(and(eq(businessAgentTools.projectId, ctx.project.id), inArray(businessAgentTools.connectorId, connectorIds)))
    .orderBy(asc(businessAgentTools.createdAt), asc(businessAgentTools.id));
  for (const row of rows) byConnector.get(row.connectorId)?.push(row);
  return byConnector;
}

async function connectorWithTools(ctx: Ctx, row: ConnectorRow) {
  const tools = await toolsOf(ctx, [row.id]);
  return serializeConnector(row, tools.get(row.id) ?? []);
}

/** GET /business-agents/{id}/connectors: every connector of the agent with its tools, oldest first. */
export async function listConnectors(ctx: Ctx, agentId: string) {
  const agent = await getAgentRowOrThrow(ctx, agentId);
  const rows = await ctx.db
    .select()
    .from(businessAgentConnectors)
    .where(and(eq(businessAgentConnectors.projectId, ctx.project.id), eq(businessAgentConnectors.businessAgentId, agent.id)))
    .orderBy(asc(businessAgentConnectors.createdAt), asc(businessAgentConnectors.id));
  const tools = await toolsOf(
    ctx,
    rows.map((row) => row.id),
  );
  return { object: "list" as const, data: rows.map((row) => serializeConnector(row, tools.get(row.id) ?? [])), has_more: false };
}

/**
 * POST /business-agents/{id}/connectors. The body's business_agent_id may be left out (the path
 * names the agent); when given it must be the path's, else 400: a client that meant another agent
 * learns it instead of writing to the wrong one.
 */
export async function createConnector(ctx: Ctx, agentId: string, input: ConnectorCreateInput, owner: ConnectorOwner = {}) {
  const agent = await getAgentRowOrThrow(ctx, agentId);
  if (input.business_agent_id !== undefined && input.business_agent_id !== agent.id) {
    throw invalidRequest(`business_agent_id must be the agent of the path (${agent.id}), or left out.`, {
      business_agent_id: [`Expected ${agent.id}.`],
    });
  }
  const stored = storedConfig(input.type, input.config, null);
  const row = await ctx.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(businessAgentConnectors)
      .values({
        id: newId("businessAgentConnector", ctx.now.getTime()),
        projectId: ctx.project.id,
        businessAgentId: agent.id,
        name: input.name,
        type: input.type,
        config: stored.config,
        sealedSecret: stored.sealedSecret,
        status: input.status ?? "ACTIVE",
        configKey: owner.configKey ?? null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .returning();
    await recordConnectorChange({ ...ctx, db: tx }, null, inserted!);
    return inserted!;
  });
  return serializeConnector(row, []);
}

/** Leaving API while API_ENDPOINT tools still call through the connector would break them silently. */
async function assertNoApiTools(ctx: Ctx, connector: ConnectorRow) {
  const [tool] = await ctx.db
    .select({ name: businessAgentTools.name })
    .from(businessAgentTools)
    .where(
      and(
        eq(businessAgentTools.projectId, ctx.project.id),
        eq(businessAgentTools.connectorId, connector.id),
        eq(businessAgentTools.backingType, "API_ENDPOINT"),
      ),
    )
    .limit(1);
  if (tool) {
    throw new SvcError(
      "conflict",
      `Connector ${connector.id} has API_ENDPOINT tools (e.g. '${tool.name}'), which need an API connector. Delete or change them before changing the type.`,
      { connector_id: connector.id },
    );
  }
}

/** PATCH /business-agent-connectors/{id}: a given config replaces the stored one (its secret: see connector-secret.ts). */
export async function updateConnector(ctx: Ctx, id: string, input: ConnectorUpdateInput) {
  const row = await getConnectorRowOrThrow(ctx, id);
  const type = input.type ?? row.type;
  if (row.type === "API" && type !== "API") await assertNoApiTools(ctx, row);
  const stored = storedConfig(type, input.config, { config: row.config ?? null, sealedSecret: row.sealedSecret });
  const updated = await ctx.db.transaction(async (tx) => {
    const [written] = await tx
      .update(businessAgentConnectors)
      .set({
        name: input.name ?? row.name,
        type,
        config: stored.config,
        sealedSecret: stored.sealedSecret,
        status: input.status ?? row.status,
        updatedAt: ctx.now,
      })
      .where(and(eq(businessAgentConnectors.projectId, ctx.project.id), eq(businessAgentConnectors.id, row.id)))
      .returning();
    await recordConnectorChange({ ...ctx, db: tx }, row, written!);
    return written!;
  });
  return connectorWithTools(ctx, updated);
}

/** DELETE /business-agent-connectors/{id}: its tools go with it (foreign key cascade, one statement). */
export async function deleteConnector(ctx: Ctx, id: string) {
  const row = await getConnectorRowOrThrow(ctx, id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(businessAgentConnectors).where(and(eq(businessAgentConnectors.projectId, ctx.project.id), eq(businessAgentConnectors.id, row.id)));
    await recordConnectorChange({ ...ctx, db: tx }, row, null);
  });
  return { object: "business_agent_connector" as const, id: row.id, deleted: true as const };
}
