import { and, asc, eq, isNull, ne, or, sql } from "drizzle-orm";
import { automations, businessAgentConnectors, businessAgents, businessAgentTools, channels, flows, hostedFunctions, projects } from "@/lib/db/schema";
import type { AgentRow, ConnectorRow, ToolRow } from "@/lib/domain/agents/agent-row";
import type { Ctx, ProjectRow } from "@/lib/domain/context";
import type { FlowRow } from "@/lib/domain/flows/serialize";
import { notFound } from "@/lib/errors";

export type AutomationRow = typeof automations.$inferSelect;

interface FunctionFact {
  id: string;
  slug: string;
  deployed: boolean;
  active: boolean;
}

/**
 * What config-as-code judges a document against (CONTRIBUTING.md "Load, then judge"): the project,
 * every flow (flows without a config_key too: an automation may name one by id), the automations in
 * document order, and the functions a run_function step may name. Everything is the key's project only.
 */
export interface ConfigFacts {
  project: ProjectRow;
  flows: FlowRow[];
  automations: AutomationRow[];
  functions: FunctionFact[];
  agents: AgentFacts;
  /** Where the project receives inbound: the shared sandbox, then its connected channels (oldest first). */
  channels: ChannelFact[];
}

/** A channel as routing judges it (lib/shared/routing-modes.ts effectiveRouting), with a name to show. */
export interface ChannelFact {
  id: string;
  name: string;
  isSandbox: boolean;
  routingMode: typeof channels.$inferSelect.routingMode;
}

/** The sandbox, and the channels whose inbound this project receives (channels/index.ts linkedProjects: the channel's own project link, else channel_id). */
async function loadChannelFacts(ctx: Pick<Ctx, "db">, project: ProjectRow): Promise<ChannelFact[]> {
  const rows = await ctx.db
    .select({
      id: channels.id,
      displayName: channels.displayName,
      phoneNumber: channels.phoneNumber,
      isSandbox: channels.isSandbox,
      routingMode: channels.routingMode,
    })
    .from(channels)
    .where(
      or(
        eq(channels.isSandbox, true),
        and(
          ne(channels.status, "disconnected"),
          or(eq(channels.projectId, project.id), project.channelId ? and(isNull(channels.projectId), eq(channels.id, project.channelId)) : undefined),
        ),
      ),
    )
    .orderBy(asc(channels.createdAt), asc(channels.id));
  const name = (r: (typeof rows)[number]) => (r.isSandbox ? "the shared sandbox" : (r.displayName ?? r.phoneNumber ?? r.id));
  const facts = rows.map((r) => ({ id: r.id, name: name(r), isSandbox: r.isSandbox, routingMode: r.routingMode }));
  return [...facts.filter((c) => c.isSandbox), ...facts.filter((c) => !c.isSandbox)];
}

/** The project's business agents with every connector and tool, oldest first (config-owned or not: tool names are unique per agent). */
export interface AgentFacts {
  agents: AgentRow[];
  connectors: ConnectorRow[];
  tools: ToolRow[];
}

async function loadAgentFacts(ctx: Pick<Ctx, "db" | "project">): Promise<AgentFacts> {
  const projectId = ctx.project.id;
  const [agentRows, connectorRows, toolRows] = [
    await ctx.db.select().from(businessAgents).where(eq(businessAgents.projectId, projectId)).orderBy(asc(businessAgents.createdAt), asc(businessAgents.id)),
    await ctx.db
      .select()
      .from(businessAgentConnectors)
      .where(eq(businessAgentConnectors.projectId, projectId))
      .orderBy(asc(businessAgentConnectors.createdAt), asc(businessAgentConnectors.id)),
    await ctx.db
      .select()
      .from(businessAgentTools)
      .where(eq(businessAgentTools.projectId, projectId))
      .orderBy(asc(businessAgentTools.createdAt), asc(businessAgentTools.id)),
  ];
  return { agents: agentRows, connectors: connectorRows, tools: toolRows };
}

export async function loadConfigFacts(ctx: Ctx): Promise<ConfigFacts> {
  const projectId = ctx.project.id;
  const [project] = await ctx.db.select().from(projects).where(eq(projects.id, projectId));
  if (!project) throw notFound("project", projectId);
  return {
    project,
    ...(await loadAutomationFacts(ctx)),
    agents: await loadAgentFacts(ctx),
    channels: await loadChannelFacts(ctx, project),
  };
}

/** What an automation entry is judged against (automation-checks.ts): every flow, the automations in document order, the functions. */
export async function loadAutomationFacts(ctx: Pick<Ctx, "db" | "project">): Promise<Pick<ConfigFacts, "flows" | "automations" | "functions">> {
  const projectId = ctx.project.id;
  const flowRows = await ctx.db.select().from(flows).where(eq(flows.projectId, projectId)).orderBy(asc(flows.id));
  const automationRows = await ctx.db
    .select()
    .from(automations)
    .where(eq(automations.projectId, projectId))
    .orderBy(asc(automations.position), asc(automations.id));
  const functionRows = await ctx.db
    .select({ id: hostedFunctions.id, slug: hostedFunctions.slug, activeVersionId: hostedFunctions.activeVersionId, isActive: hostedFunctions.isActive })
    .from(hostedFunctions)
    .where(eq(hostedFunctions.projectId, projectId));
  return {
    flows: flowRows,
    automations: automationRows,
    functions: functionRows.map((f) => ({ id: f.id, slug: f.slug, deployed: f.activeVersionId !== null, active: f.isActive })),
  };
}

/**
 * Two applies of one project run one after the other (a transaction-scoped advisory lock), so the
 * second judges what the first wrote instead of racing it to the same (key, locale).
 */
export async function lockProjectConfig(ctx: Pick<Ctx, "db" | "project">): Promise<void> {
  await ctx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`config:${ctx.project.id}`}))`);
}
