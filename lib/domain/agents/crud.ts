import { and, eq } from "drizzle-orm";
import { businessAgents } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { getChannelRowOrThrow } from "@/lib/domain/channels";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { isUniqueViolation } from "@/lib/domain/shared/unique-violation";
import { notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getAgentRowOrThrow } from "./agent-row";
import { assertEligible, judgeEligibility } from "./eligibility";
import { enqueueProvision, planTransition } from "./provision";
import { serializeAgent, serializeSettings, type AgentRow } from "./serialize";
import { recordAudit } from "@/lib/domain/audit/record";

/**
 * The business agent itself (docs/spec/decisions.md "Business agents"): one per (project, channel),
 * written by POST /business-agents (ApplyRequest) and PUT /business-agents/{id}/settings. `settings`
 * keeps every key sent, extra keys included; both writes merge top-level keys into what is there.
 */
export type ApplyInput = { channel_id: string } & Record<string, unknown>;
export type SettingsInput = Record<string, unknown>;

/** The project's agent of a channel, or null. */
export async function agentOfChannel(ctx: Pick<Ctx, "db" | "project">, channelId: string): Promise<AgentRow | null> {
  const [row] = await ctx.db
    .select()
    .from(businessAgents)
    .where(and(eq(businessAgents.projectId, ctx.project.id), eq(businessAgents.channelId, channelId)))
    .limit(1);
  return row ?? null;
}

/**
 * POST /business-agents: creates or updates the channel's agent. The channel must be eligible (412
 * channel_not_ready with the blockers otherwise); the new status follows planTransition, and the
 * agents.provision job commits with the write.
 */
export async function applyAgent(ctx: Ctx, input: ApplyInput) {
  const { channel_id: channelId, ...keys } = input;
  const channel = await getChannelRowOrThrow(ctx, channelId);
  const eligibility = judgeEligibility(channel, ctx.project, ctx.now);
  assertEligible(channel, eligibility);
  try {
    return await writeApply(ctx, channel.id, keys, eligibility);
  } catch (error) {
    // Two first applies at once: the loser applies again, now as an update of the winner's agent.
    if (isUniqueViolation(error, "business_agents_project_channel")) return writeApply(ctx, channel.id, keys, eligibility);
    throw error;
  }
}

async function writeApply(ctx: Ctx, channelId: string, keys: Record<string, unknown>, eligibility: object) {
  return ctx.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(businessAgents)
      .where(and(eq(businessAgents.projectId, ctx.project.id), eq(businessAgents.channelId, channelId)))
      .for("update");
    const settings = { ...(current?.settings ?? {}), ...keys };
    const next = planTransition(current ?? null, settings);
    const values = { settings, eligibility: eligibility as Record<string, unknown>, status: next.status, errorMessage: null, updatedAt: ctx.now };
    const [row] = current
      ? await tx.update(businessAgents).set(values).where(eq(businessAgents.id, current.id)).returning()
      : await tx
          .insert(businessAgents)
          .values({ id: newId("businessAgent", ctx.now.getTime()), projectId: ctx.project.id, channelId, ...values, createdAt: ctx.now })
          .returning();
    if (next.provision) await enqueueProvision(ctx.ports.queue, tx, row!);
    await recordEnablement({ ...ctx, db: tx }, current ?? null, row!);
    return serializeAgent(row!);
  });
}

export async function getAgent(ctx: Ctx, id: string) {
  return serializeAgent(await getAgentRowOrThrow(ctx, id));
}

export async function listAgents(ctx: Ctx, params: PageParams & { channel_id?: string | undefined }) {
  const filter = params.channel_id ? eq(businessAgents.channelId, params.channel_id) : undefined;
  const page = await paginate(ctx.db, businessAgents, eq(businessAgents.projectId, ctx.project.id), params, filter);
  return { object: "list" as const, data: page.data.map(serializeAgent), has_more: page.has_more };
}

export async function getSettings(ctx: Ctx, id: string) {
  return serializeSettings(await getAgentRowOrThrow(ctx, id));
}

/** PUT /business-agents/{id}/settings: top-level keys merge into the settings; `enabled` moves the status as an apply does. */
export async function putSettings(ctx: Ctx, id: string, input: SettingsInput) {
  await getAgentRowOrThrow(ctx, id);
  return ctx.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(businessAgents)
      .where(and(eq(businessAgents.projectId, ctx.project.id), eq(businessAgents.id, id)))
      .for("update");
    if (!current) throw notFound("business agent", id);
    const settings = { ...current.settings, ...input };
    const next = planTransition(current, settings);
    // ERROR stays ERROR until the next apply: a settings edit is no retry of the provisioning.
    const status = current.status === "ERROR" && next.status !== "DISABLED" ? current.status : next.status;
    const [row] = await tx.update(businessAgents).set({ settings, status, updatedAt: ctx.now }).where(eq(businessAgents.id, id)).returning();
    if (next.provision && status !== "ERROR") await enqueueProvision(ctx.ports.queue, tx, row!);
    await recordEnablement({ ...ctx, db: tx }, current, row!);
    return serializeSettings(row!);
  });
}

/** `enabled: false` turns an agent off (provision.ts); a new agent starts on unless it says so. Only a switch is an entry. */
function isEnabled(row: Pick<AgentRow, "settings"> | null): boolean {
  return row !== null && row.settings.enabled !== false;
}

async function recordEnablement(ctx: Ctx, before: AgentRow | null, after: AgentRow): Promise<void> {
  if (isEnabled(before) === isEnabled(after)) return;
  await recordAudit(ctx, {
    action: isEnabled(after) ? "business_agent.enabled" : "business_agent.disabled",
    target: { type: "business_agent", id: after.id },
    details: { channel_id: after.channelId },
  });
}
